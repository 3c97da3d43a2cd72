import { describe, expect, it } from 'vitest'
import type { Feature } from '~/features/map/bundle-types'
import { splitCommands, withAcceptanceCriteria } from '~/features/assistant/ui/suggest-writes'
import { previewCounts, previewOfPartial } from '~/features/assistant/ui/draft-preview'

describe('withAcceptanceCriteria', () => {
  it('appends the checklist under its heading, after a blank line', () => {
    expect(withAcceptanceCriteria('Pays by card.\n', ['Declined cards say so', 'A receipt is sent'])).toBe(
      'Pays by card.\n\n### Acceptance criteria\n\n- [ ] Declined cards say so\n- [ ] A receipt is sent\n',
    )
  })
  it('starts an empty description with the heading', () => {
    expect(withAcceptanceCriteria('  ', ['Works'])).toBe('### Acceptance criteria\n\n- [ ] Works\n')
  })
})

describe('splitCommands', () => {
  const feature = { id: 'f0', milestoneId: 'm1', subWorkflowId: 's1' } as Feature
  it('creates each in the cell, right after the one before, the first after the feature', () => {
    const { commands, ids } = splitCommands(feature, [
      { title: 'One', description: 'First part' },
      { title: 'Two', description: '' },
    ])
    expect(ids).toHaveLength(2)
    expect(commands).toEqual([
      { type: 'feature.create', id: ids[0], milestoneId: 'm1', subWorkflowId: 's1', title: 'One' },
      { type: 'feature.move', id: ids[0], toMilestoneId: 'm1', toSubWorkflowId: 's1', afterId: 'f0' },
      { type: 'card.description', kind: 'feature', id: ids[0], description: 'First part' },
      { type: 'feature.create', id: ids[1], milestoneId: 'm1', subWorkflowId: 's1', title: 'Two' },
      { type: 'feature.move', id: ids[1], toMilestoneId: 'm1', toSubWorkflowId: 's1', afterId: ids[0] },
    ])
  })
})

describe('previewOfPartial', () => {
  it('reads a half-written draft as far as it goes', () => {
    const preview = previewOfPartial({
      title: 'Bakery',
      releases: [{ title: 'First' }, {}],
      goals: [
        {
          title: 'Order',
          activities: [{ title: 'Pick', cells: [{ release: 0, features: [{ title: 'Bread' }, null] }] }],
        },
        'x',
      ],
    })
    expect(preview).toEqual({
      title: 'Bakery',
      releases: ['First', ''],
      goals: [
        { title: 'Order', activities: [{ title: 'Pick', features: [{ title: 'Bread', release: 0 }] }] },
      ],
    })
    expect(previewCounts(preview)).toBe('1 goal, 1 activity, 2 releases, 1 feature')
  })
  it('reads nothing from what is not a draft', () => {
    expect(previewOfPartial(null)).toEqual({ title: '', releases: [], goals: [] })
  })
})
