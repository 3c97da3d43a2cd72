import { describe, expect, it } from 'vitest'
import { deletedWith } from '~/features/board/delete-summary'

const sub = (id: string, rank: string, workflowId: string) =>
  ({ id, rank, title: id.toUpperCase(), workflowId }) as never
const feature = (id: string, rank: string, milestoneId: string, subWorkflowId: string) =>
  ({ id, rank, title: `F${id}`, milestoneId, subWorkflowId }) as never

const bundle = {
  subWorkflows: [sub('pay', 'c', 'shop'), sub('browse', 'b', 'shop'), sub('chat', 'b', 'help')],
  features: [
    feature('1', 'b', 'mvp', 'browse'),
    feature('2', 'c', 'mvp', 'browse'),
    feature('3', 'b', 'later', 'pay'),
    feature('4', 'b', 'mvp', 'chat'),
  ],
}

describe('deletedWith', () => {
  it('names a goal’s activities and their features, in board order', () => {
    expect(deletedWith(bundle, 'workflow', 'shop')).toBe(
      'With it go its 2 activities (‘BROWSE’, ‘PAY’) and its 3 features (‘F1’, ‘F2’, ‘F3’).',
    )
  })

  it('names an activity’s or a release’s features', () => {
    expect(deletedWith(bundle, 'subworkflow', 'browse')).toBe('With it go its 2 features (‘F1’, ‘F2’).')
    expect(deletedWith(bundle, 'milestone', 'later')).toBe('With it go its 1 feature (‘F3’).')
  })

  it('counts what is past the first five', () => {
    const many = {
      subWorkflows: [],
      features: Array.from({ length: 7 }, (_, i) => feature(String(i), `b${i}`, 'mvp', 'x')),
    }
    expect(deletedWith(many, 'milestone', 'mvp')).toBe(
      'With it go its 7 features (‘F0’, ‘F1’, ‘F2’, ‘F3’, ‘F4’ and 2 more).',
    )
  })

  it('is null when nothing goes with the card', () => {
    expect(deletedWith(bundle, 'workflow', 'empty')).toBeNull()
    expect(deletedWith(bundle, 'feature', '1')).toBeNull()
  })
})
