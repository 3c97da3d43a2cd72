import { describe, expect, it } from 'vitest'
import { cardPlace } from '~/features/board/card-place'

const bundle = {
  milestones: [{ id: 'r1', title: 'MVP' }],
  workflows: [{ id: 'g1', title: 'Shop' }],
  subWorkflows: [{ id: 'a1', title: 'Pay', workflowId: 'g1' }],
  features: [
    { id: 'f1', title: 'Card', milestoneId: 'r1', subWorkflowId: 'a1' },
    { id: 'f2', title: 'Lost', milestoneId: 'gone', subWorkflowId: 'a1' },
  ],
} as unknown as Parameters<typeof cardPlace>[0]

describe('cardPlace', () => {
  it('places a feature in its release, goal and activity, by name', () => {
    expect(cardPlace(bundle, 'feature', 'f1')).toEqual([
      { label: 'Release', title: 'MVP' },
      { label: 'Goal', title: 'Shop' },
      { label: 'Activity', title: 'Pay' },
    ])
  })

  it('places an activity in its goal; goals, releases and the project have no place', () => {
    expect(cardPlace(bundle, 'subworkflow', 'a1')).toEqual([{ label: 'Goal', title: 'Shop' }])
    expect(cardPlace(bundle, 'workflow', 'g1')).toEqual([])
    expect(cardPlace(bundle, 'milestone', 'r1')).toEqual([])
    expect(cardPlace(bundle, 'project', 'p1')).toEqual([])
  })

  it('leaves out what is gone', () => {
    expect(cardPlace(bundle, 'feature', 'f2').map((p) => p.title)).toEqual(['Shop', 'Pay'])
    expect(cardPlace(bundle, 'feature', 'nope')).toEqual([])
  })
})
