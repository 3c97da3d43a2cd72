import { describe, expect, it } from 'vitest'
import type { ProjectBundle } from '~/features/map/bundle-types'
import { shareUnchangedEntities } from '~/features/map/bundle-identity'

const feature = (id: string, title = id) => ({ id, title, rank: 'n', estimate: 0 })
const bundle = (features: ReturnType<typeof feature>[]) =>
  ({
    project: { id: 'p', title: 'Map' },
    milestones: [],
    workflows: [],
    subWorkflows: [],
    features,
    featureComments: [],
    personas: [],
    workflowPersonas: [],
    tags: [],
  }) as unknown as ProjectBundle

describe('shareUnchangedEntities', () => {
  it('keeps the previous object of every entity that did not change', () => {
    const previous = bundle([feature('a'), feature('b')])
    const next = shareUnchangedEntities(previous, bundle([feature('a'), feature('b', 'Renamed')]))
    expect(next.features[0]).toBe(previous.features[0])
    expect(next.features[1]).not.toBe(previous.features[1])
    expect(next.features[1].title).toBe('Renamed')
    expect(next.project).toBe(previous.project)
  })

  it('keeps a whole list when nothing in it changed, and notices order, additions and removals', () => {
    const previous = bundle([feature('a'), feature('b')])
    expect(shareUnchangedEntities(previous, bundle([feature('a'), feature('b')])).features).toBe(
      previous.features,
    )
    const reordered = shareUnchangedEntities(previous, bundle([feature('b'), feature('a')]))
    expect(reordered.features).not.toBe(previous.features)
    expect(reordered.features[0]).toBe(previous.features[1])
    expect(shareUnchangedEntities(previous, bundle([feature('a')])).features.map((f) => f.id)).toEqual(['a'])
    expect(
      shareUnchangedEntities(previous, bundle([feature('a'), feature('b'), feature('c')])).features,
    ).toHaveLength(3)
  })

  it('takes the fresh bundle as is the first time', () => {
    const fresh = bundle([feature('a')])
    expect(shareUnchangedEntities(undefined, fresh)).toBe(fresh)
  })
})
