import { describe, expect, it } from 'vitest'
import { applyCommand } from '~/features/board/board-reducer'
import { filterChips, NO_FILTER, parseBoardFilter, writeBoardFilter } from '~/features/board/board-filter'
import type { Feature, ProjectBundle } from '~/features/map/bundle-types'
import { featureMatcher } from '~/features/board/feature-match'
import { storyMapOutline } from '~/features/automation/story-map-outline'

const feature = (id: string, title: string, tagIds: string[]): Feature =>
  ({
    id,
    title,
    description: '',
    status: 'OPEN',
    color: '',
    annotations: '',
    estimate: 0,
    rank: id,
    subWorkflowId: 'a',
    milestoneId: 'r',
    projectId: 'p',
    tagIds,
  }) as Feature

const bundle = (): ProjectBundle =>
  ({
    version: 1,
    project: { kind: 'project', id: 'p', workspaceId: 'w', title: 'Shop', description: '' },
    milestones: [{ id: 'r', title: 'MVP', rank: 'a', status: 'OPEN', color: '', annotations: '' }],
    workflows: [{ id: 'g', title: 'Buy', rank: 'a', status: 'OPEN', color: '', annotations: '' }],
    subWorkflows: [
      { id: 'a', workflowId: 'g', title: 'Pay', rank: 'a', status: 'OPEN', color: '', annotations: '' },
    ],
    features: [feature('f1', 'Card', ['t1']), feature('f2', 'Cash', ['t2']), feature('f3', 'Coupon', [])],
    featureComments: [],
    personas: [],
    workflowPersonas: [],
    tags: [
      { id: 't1', projectId: 'p', name: 'Mobile', color: 'PINK' },
      { id: 't2', projectId: 'p', name: 'Web', color: 'BLUE' },
    ],
  }) as unknown as ProjectBundle

const meta = { memberId: 'm', name: 'Ana', now: '2026-11-25T00:00:00.000Z' }
const matches = (b: ProjectBundle, query: string) => {
  const match = featureMatcher(parseBoardFilter(new URLSearchParams(query)), b, (f) => f.title.toLowerCase())
  return match ? b.features.filter(match).map((f) => f.title) : null
}

describe('tags in the board filter (CONTRACT §12)', () => {
  it('tag= keeps features with any of the tags; a tag name is found by the search', () => {
    expect(matches(bundle(), 'tag=t1')).toEqual(['Card'])
    expect(matches(bundle(), 'tag=t1&tag=t2')).toEqual(['Card', 'Cash'])
    expect(matches(bundle(), 'q=mobile')).toEqual(['Card'])
    expect(matches(bundle(), 'q=web+cash')).toEqual(['Cash'])
  })
  it('writes tags to the URL and shows a chip per tag by name', () => {
    const filter = { ...NO_FILTER, tags: ['t2', 't1'] }
    expect(writeBoardFilter(new URLSearchParams('demo=1'), filter).toString()).toBe('demo=1&tag=t2&tag=t1')
    const chips = filterChips(
      filter,
      () => undefined,
      (id) => bundle().tags.find((t) => t.id === id)?.name,
    )
    expect(chips.map((c) => c.label)).toEqual(['Tag: Web', 'Tag: Mobile'])
    expect(chips[0].without.tags).toEqual(['t1'])
  })
})

describe('tag commands on a bundle (optimistic edits, demo mode)', () => {
  it('creates in name order, renames, recolours, tags a feature, and a delete takes the tag off its features', () => {
    let b = applyCommand(
      bundle(),
      { type: 'tag.create', id: 't0', projectId: 'p', name: 'api', color: 'RED' },
      meta,
    )
    expect(b.tags.map((t) => t.name)).toEqual(['api', 'Mobile', 'Web'])
    b = applyCommand(b, { type: 'tag.rename', id: 't0', name: 'Zeta' }, meta)
    expect(b.tags.map((t) => t.name)).toEqual(['Mobile', 'Web', 'Zeta'])
    b = applyCommand(b, { type: 'tag.color', id: 't0', color: 'TEAL' }, meta)
    expect(b.tags.find((t) => t.id === 't0')?.color).toBe('TEAL')
    b = applyCommand(b, { type: 'feature.tags', id: 'f3', tagIds: ['t0', 't1', 't0'] }, meta)
    expect(b.features.find((f) => f.id === 'f3')?.tagIds).toEqual(['t0', 't1'])
    b = applyCommand(b, { type: 'tag.delete', id: 't1' }, meta)
    expect(b.tags.map((t) => t.id)).toEqual(['t2', 't0'])
    expect(b.features.map((f) => f.tagIds)).toEqual([[], ['t2'], ['t0']])
  })
  it('the assistant outline names each feature’s tags', () => {
    expect(storyMapOutline(bundle())).toContain('- "Card" [f1] (tags: Mobile)')
  })
})
