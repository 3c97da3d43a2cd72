import { describe, expect, it } from 'vitest'
import type { ProjectBundle } from '~/features/map/bundle-types'
import {
  applyChangeEvent,
  deletionRoots,
  type ChangeEvent,
  type EntityChange,
} from '~/features/map/event-merge'

const feature = (id: string, rank: string, title = id) => ({
  id,
  rank,
  title,
  milestoneId: 'm',
  subWorkflowId: 's',
})
const base = {
  version: 4,
  project: { kind: 'project', id: 'p', title: 'Map' },
  milestones: [{ id: 'm', rank: 'n' }],
  workflows: [],
  subWorkflows: [],
  features: [feature('a', 'b'), feature('b', 'n'), feature('c', 't')],
  featureComments: [
    { id: 'c2', createdAt: '2026-01-02' },
    { id: 'c1', createdAt: '2026-01-01' },
  ],
  personas: [
    { id: 'p1', name: 'Bea' },
    { id: 'p2', name: 'Zed' },
  ],
  workflowPersonas: [],
} as unknown as ProjectBundle

const event = (changes: EntityChange[], version = 5): ChangeEvent => ({
  version,
  at: '2026-01-03T00:00:00.000Z',
  by: { memberId: 'x', name: 'X' },
  changes,
})
const upsert = (kind: EntityChange['kind'], entity: Record<string, unknown>) =>
  ({ op: 'upsert', kind, entity }) as EntityChange

describe('applyChangeEvent', () => {
  it('replaces a changed entity in place and keeps every other object as it was', () => {
    const next = applyChangeEvent(base, event([upsert('feature', feature('b', 'n', 'Renamed'))]))
    expect(next.version).toBe(5)
    expect(next.features.map((f) => f.title)).toEqual(['a', 'Renamed', 'c'])
    expect(next.features[0]).toBe(base.features[0])
    expect(next.features[2]).toBe(base.features[2])
    expect(next.personas).toBe(base.personas)
    expect(next.project).toBe(base.project)
  })

  it('puts new and moved entities where the bundle order says', () => {
    const next = applyChangeEvent(
      base,
      event([upsert('feature', feature('c', 'a', 'c')), upsert('feature', feature('d', 'p'))]),
    )
    expect(next.features.map((f) => f.id)).toEqual(['c', 'a', 'b', 'd'])
    const comments = applyChangeEvent(
      base,
      event([upsert('featureComment', { id: 'c3', createdAt: '2026-01-03' })]),
    )
    expect(comments.featureComments.map((c) => c.id)).toEqual(['c3', 'c2', 'c1'])
    const personas = applyChangeEvent(base, event([upsert('persona', { id: 'p2', name: 'Al' })]))
    expect(personas.personas.map((p) => p.name)).toEqual(['Al', 'Bea'])
  })

  it('removes deleted entities and takes the project as upserted', () => {
    const next = applyChangeEvent(
      base,
      event([
        { op: 'delete', kind: 'feature', id: 'a' },
        { op: 'delete', kind: 'featureComment', id: 'c1' },
        upsert('project', { kind: 'project', id: 'p', title: 'New name' }),
      ]),
    )
    expect(next.features.map((f) => f.id)).toEqual(['b', 'c'])
    expect(next.featureComments.map((c) => c.id)).toEqual(['c2'])
    expect(next.project.title).toBe('New name')
  })

  it('ignores kinds it does not know', () => {
    const next = applyChangeEvent(base, event([upsert('gadget' as never, { id: 'g' })]))
    expect({ ...next, version: 4 }).toEqual(base)
  })
})

describe('deletionRoots', () => {
  const map = {
    subWorkflows: [
      { id: 'browse', workflowId: 'shop' },
      { id: 'pay', workflowId: 'shop' },
    ],
    features: [
      { id: 'f1', milestoneId: 'mvp', subWorkflowId: 'browse' },
      { id: 'f2', milestoneId: 'later', subWorkflowId: 'pay' },
    ],
  } as unknown as ProjectBundle
  const deletes = (...ids: [EntityChange['kind'], string][]) =>
    event(ids.map(([kind, id]) => ({ op: 'delete', kind, id })))

  it('points each card a goal’s delete took at the goal, whatever the order the event lists them in', () => {
    const roots = deletionRoots(
      map,
      deletes(
        ['feature', 'f2'],
        ['subWorkflow', 'pay'],
        ['workflow', 'shop'],
        ['feature', 'f1'],
        ['subWorkflow', 'browse'],
      ),
    )
    expect(Object.fromEntries(roots)).toEqual({
      f1: 'shop',
      f2: 'shop',
      pay: 'shop',
      browse: 'shop',
      shop: 'shop',
    })
  })

  it('points a release’s features at the release, and a feature deleted alone at itself', () => {
    expect(
      Object.fromEntries(deletionRoots(map, deletes(['milestone', 'later'], ['feature', 'f2']))),
    ).toEqual({ later: 'later', f2: 'later' })
    expect(Object.fromEntries(deletionRoots(map, deletes(['feature', 'f1'])))).toEqual({ f1: 'f1' })
  })
})
