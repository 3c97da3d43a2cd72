import { describe, expect, it } from 'vitest'
import { buildGrid, cellKey } from '~/features/board/board-grid'
import type { ProjectBundle } from '~/features/map/bundle-types'

const card = (id: string, rank: string, extra: Record<string, unknown> = {}): any => ({
  id,
  workspaceId: 'w',
  rank,
  title: id,
  description: '',
  createdAt: '',
  createdBy: '',
  createdByName: '',
  lastModified: '',
  lastModifiedByName: '',
  color: '',
  status: 'OPEN',
  annotations: '',
  ...extra,
})
const closed = { status: 'CLOSED' }

const bundle = {
  project: {},
  milestones: [card('m1', 'b'), card('m2', 'c', closed), card('m3', 'd')],
  workflows: [card('w2', 'm'), card('w1', 'c'), card('w3', 'x', closed)],
  subWorkflows: [
    card('s1', 'c', { workflowId: 'w1' }),
    card('s2', 'd', { workflowId: 'w1', ...closed }),
    card('s3', 'c', { workflowId: 'w2' }),
  ],
  features: [
    card('f1', 'c', { milestoneId: 'm1', subWorkflowId: 's1', estimate: 3 }),
    card('f2', 'b', { milestoneId: 'm1', subWorkflowId: 's1', estimate: 2, ...closed }),
    card('f3', 'c', { milestoneId: 'm3', subWorkflowId: 's2', estimate: 5 }),
    card('f4', 'c', { milestoneId: 'm1', subWorkflowId: 's3', estimate: 1 }),
  ],
  featureComments: [],
  personas: [],
  workflowPersonas: [],
} as unknown as ProjectBundle

describe('buildGrid', () => {
  it('orders goals, activities and releases by rank and hides closed ones', () => {
    const grid = buildGrid(bundle, false)
    expect(grid.goals.map((g) => g.workflow.id)).toEqual(['w1', 'w2'])
    expect(grid.goals[0].activities.map((a) => a.id)).toEqual(['s1'])
    expect(grid.releases.map((r) => r.milestone.id)).toEqual(['m1', 'm3'])
    expect(grid.hidden).toEqual({ releases: 1, goals: 1, activities: 1 })
  })

  it('shows everything with Show closed', () => {
    const grid = buildGrid(bundle, true)
    expect(grid.goals.map((g) => g.workflow.id)).toEqual(['w1', 'w2', 'w3'])
    expect(grid.hidden).toEqual({ releases: 0, goals: 0, activities: 0 })
  })

  it('sums and counts what the board shows: closed features and cards under hidden ones left out, and told', () => {
    const grid = buildGrid(bundle, false)
    // f2 is closed; f3 sits under the closed activity s2.
    expect(grid.goals[0].size).toBe(3)
    expect(grid.activitySize.get('s1')).toBe(3)
    expect(grid.releases[0]).toMatchObject({ size: 4, count: 2, closed: 1 })
    expect(grid.releases[1]).toMatchObject({ size: 0, count: 0, closed: 0 })
    expect(grid.closedLeftOut).toBe(1)
    expect(grid.cells.get(cellKey('m1', 's1'))!.map((f) => f.id)).toEqual(['f2', 'f1'])
  })

  it('with Show closed sums and counts every feature under a card', () => {
    const grid = buildGrid(bundle, true)
    expect(grid.goals.find((g) => g.workflow.id === 'w1')!.size).toBe(10)
    expect(grid.activitySize.get('s1')).toBe(5)
    expect(grid.releases[0]).toMatchObject({ size: 6, count: 3, closed: 0 })
    expect(grid.closedLeftOut).toBe(0)
  })

  it('counts closed features in shown cells when asked (the closed filter), closed cards staying hidden', () => {
    const grid = buildGrid(bundle, false, undefined, true)
    expect(grid.goals.map((g) => g.workflow.id)).toEqual(['w1', 'w2'])
    expect(grid.goals[0].size).toBe(5)
    expect(grid.releases[0]).toMatchObject({ size: 6, count: 3, closed: 0 })
  })
})

describe('buildGrid with the previous grid', () => {
  it('keeps every unchanged column, row and cell and renews only what a move touched', () => {
    const before = buildGrid(bundle, false)
    const f1 = bundle.features.find((f) => f.id === 'f1')!
    const moved = { ...f1, milestoneId: 'm3', subWorkflowId: 's3' }
    const after = buildGrid(
      { ...bundle, features: bundle.features.map((f) => (f.id === 'f1' ? moved : f)) },
      false,
      before,
    )
    expect(after.cells.get(cellKey('m1', 's3'))).toBe(before.cells.get(cellKey('m1', 's3')))
    expect(after.cells.get(cellKey('m1', 's1'))!.map((f) => f.id)).toEqual(['f2'])
    expect(after.cells.get(cellKey('m3', 's3'))).toEqual([moved])
    // Sizes changed for both goals and both releases, so those are new; nothing else is.
    expect(after.goals[0]).not.toBe(before.goals[0])
    expect(after.releases[1]).not.toBe(before.releases[1])
  })

  it('returns the previous lists themselves when nothing shown changed', () => {
    const before = buildGrid(bundle, false)
    const after = buildGrid({ ...bundle, features: [...bundle.features] }, false, before)
    expect(after.goals).toBe(before.goals)
    expect(after.releases).toBe(before.releases)
    for (const [key, list] of after.cells) expect(list).toBe(before.cells.get(key))
  })
})
