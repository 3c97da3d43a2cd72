import { describe, expect, it } from 'vitest'
import { summarizeChange, trashRoots, type SummaryEntry } from '~/features/map/activity-sentence'

const names: Record<string, string> = { m2: 'MVP', s2: 'Checkout', w1: 'Shop', f1: 'Pay', p1: 'Pat' }
const nameOf = (_kind: string, id: string) => names[id] ?? null
const feature = (fields: Record<string, unknown>) => ({
  id: 'f1',
  kind: 'feature',
  title: 'Pay',
  milestoneId: 'm1',
  subWorkflowId: 's1',
  ...fields,
})
const change = (kind: string, before: any, after: any, id = (before ?? after).id): SummaryEntry => ({
  kind,
  id,
  before,
  after,
})

describe('summarizeChange', () => {
  it('says what happened to which card, titles quoted', () => {
    const renamed = [change('feature', feature({}), feature({ title: 'Pay by card' }))]
    expect(summarizeChange({ type: 'card.rename', kind: 'feature', id: 'f1' }, renamed, nameOf)).toBe(
      "Renamed feature 'Pay' to 'Pay by card'",
    )
    const moved = [change('feature', feature({}), feature({ milestoneId: 'm2' }))]
    expect(summarizeChange({ type: 'feature.move', id: 'f1' }, moved, nameOf)).toBe(
      "Moved feature 'Pay' to release 'MVP'",
    )
    const both = [change('feature', feature({}), feature({ milestoneId: 'm2', subWorkflowId: 's2' }))]
    expect(summarizeChange({ type: 'feature.move', id: 'f1' }, both, nameOf)).toBe(
      "Moved feature 'Pay' to release 'MVP' and activity 'Checkout'",
    )
    expect(
      summarizeChange(
        { type: 'card.color', kind: 'feature', id: 'f1' },
        [change('feature', feature({}), feature({ color: 'RED' }))],
        nameOf,
      ),
    ).toBe("Colored feature 'Pay' red")
    // A size command carries no kind, as the board sends it.
    expect(
      summarizeChange(
        { type: 'feature.estimate', id: 'f1', estimate: 5 },
        [change('feature', feature({}), feature({ estimate: 5 }))],
        nameOf,
      ),
    ).toBe("Set the size of feature 'Pay' to 5")
    expect(
      summarizeChange(
        { type: 'card.annotations', kind: 'feature', id: 'f1' },
        [change('feature', feature({}), feature({ annotations: 'RISKY,BLOCKED' }))],
        nameOf,
      ),
    ).toBe("Marked feature 'Pay' as Risky, Blocked")
    expect(
      summarizeChange(
        { type: 'comment.create', id: 'c1' },
        [change('featureComment', null, { id: 'c1', featureId: 'f1' })],
        nameOf,
      ),
    ).toBe("Commented on feature 'Pay'")
    expect(
      summarizeChange(
        { type: 'workflowPersona.delete', id: 'l1' },
        [change('workflowPersona', { id: 'l1', personaId: 'p1', workflowId: 'w1' }, null)],
        nameOf,
      ),
    ).toBe("Took persona 'Pat' off goal 'Shop'")
  })

  it('counts what a delete took with it', () => {
    const activity = change('subWorkflow', { id: 's2', title: 'Checkout', workflowId: 'w1' }, null)
    const features = ['a', 'b', 'c'].map((id) =>
      change('feature', feature({ id, subWorkflowId: 's2' }), null),
    )
    const comment = change('featureComment', { id: 'x', featureId: 'a' }, null)
    expect(
      summarizeChange(
        { type: 'card.delete', kind: 'subworkflow', id: 's2' },
        [...features, comment, activity],
        nameOf,
      ),
    ).toBe("Deleted activity 'Checkout' (3 features)")
    expect(summarizeChange({ type: 'card.delete', kind: 'feature', id: 'a' }, [features[0]], nameOf)).toBe(
      "Deleted feature 'Pay'",
    )
  })
})

describe('trashRoots', () => {
  it('makes one entry of a deleted card and everything under it, counting the cards', () => {
    const goal = change('workflow', { id: 'w1', title: 'Shop', projectId: 'p' }, null)
    const activity = change('subWorkflow', { id: 's1', title: 'A', workflowId: 'w1' }, null)
    const f = change('feature', feature({ id: 'f', subWorkflowId: 's1' }), null)
    const link = change('workflowPersona', { id: 'l', workflowId: 'w1', personaId: 'p1' }, null)
    expect(trashRoots([f, activity, link, goal]).map((r) => [r.entry.id, r.cards])).toEqual([['w1', 3]])
    expect(trashRoots([change('feature', feature({}), feature({ title: 'x' }))])).toEqual([])
  })
})
