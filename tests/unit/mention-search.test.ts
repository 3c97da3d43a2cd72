import { describe, expect, it } from 'vitest'
import { NO_FILTER } from '~/features/board/board-filter'
import type { Feature, FeatureComment, ProjectBundle } from '~/features/map/bundle-types'
import {
  commentSearchText,
  createSearchTextIndex,
  featureMatcher,
  memberNameMap,
} from '~/features/board/feature-match'

/** The board's search (CONTRACT §9) over comments with mentions (§12): it matches what the user reads. */
const feature = (id: string, title: string) =>
  ({ id, title, description: '', tagIds: [] }) as unknown as Feature
const comment = (id: string, featureId: string, post: string) =>
  ({ id, featureId, post }) as unknown as FeatureComment

const features = [feature('f1', 'Checkout'), feature('f2', 'Invoices'), feature('f3', 'Refunds')]
const comments = [
  comment('c1', 'f1', 'Ask @[member:m-ann] about the totals'),
  comment('c2', 'f2', 'Plain note'),
  comment('c3', 'f3', 'Who is @[member:m-gone]?'),
]
const bundle = {
  features,
  featureComments: comments,
  tags: [],
  workflowPersonas: [],
  subWorkflows: [],
} as unknown as ProjectBundle

function found(
  index: ReturnType<typeof createSearchTextIndex>,
  members: { id: string; name: string }[],
  q: string,
) {
  const texts = index(features, comments, memberNameMap(members))
  const matches = featureMatcher({ ...NO_FILTER, q }, bundle, (f) => texts.get(f.id) ?? '')
  return features.filter((f) => matches?.(f)).map((f) => f.id)
}

describe('search and mentions', () => {
  const members = [{ id: 'm-ann', name: 'Ann Lee' }]

  it('finds a comment by the mentioned member’s name, with or without the @', () => {
    const index = createSearchTextIndex()
    expect(found(index, members, 'Ann')).toEqual(['f1'])
    expect(found(index, members, '@Ann')).toEqual(['f1'])
    expect(found(index, members, '@ann lee totals')).toEqual(['f1'])
    expect(found(index, members, 'LEE')).toEqual(['f1'])
  })

  it('never matches the stored token: not `member:`, not the member id, not the brackets', () => {
    const index = createSearchTextIndex()
    expect(found(index, members, 'member:')).toEqual([])
    expect(found(index, members, 'member')).toEqual([])
    expect(found(index, members, 'm-ann')).toEqual([])
    expect(found(index, members, '@[')).toEqual([])
    expect(found(index, members, 'm-gone')).toEqual([])
  })

  it('an unknown member reads as @someone and is found so', () => {
    expect(found(createSearchTextIndex(), members, '@someone')).toEqual(['f3'])
  })

  it('a renamed member is found by the new name, not the old, by the same index', () => {
    const index = createSearchTextIndex()
    expect(found(index, members, 'Ann')).toEqual(['f1'])
    const renamed = [{ id: 'm-ann', name: 'Bea Baker' }]
    expect(found(index, renamed, 'Bea')).toEqual(['f1'])
    expect(found(index, renamed, 'Ann')).toEqual([])
  })

  it('without member names (as before) a mention still hides its token', () => {
    const texts = createSearchTextIndex()(features, comments)
    expect(texts.get('f1')).not.toContain('member')
    expect(commentSearchText('Café @[member:x]', memberNameMap([{ id: 'x', name: 'Zoë' }]))).toBe('cafe @zoe')
  })

  it('keeps one names map while the member list is unchanged, so the search cache stays', () => {
    const first = memberNameMap(members)
    expect(memberNameMap([{ id: 'm-ann', name: 'Ann Lee' }], first)).toBe(first)
    expect(memberNameMap([{ id: 'm-ann', name: 'Ann Leé' }], first)).not.toBe(first)
  })
})
