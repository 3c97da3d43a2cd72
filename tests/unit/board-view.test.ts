import { describe, expect, it } from 'vitest'
import { buildGrid } from '~/features/board/board-grid'
import { NO_FILTER, parseBoardFilter, type BoardFilter } from '~/features/board/board-filter'
import type { ProjectBundle } from '~/features/map/bundle-types'
import { deriveBoardView, type BoardView } from '~/features/board/board-view'
import { createSearchTextIndex, featureMatcher } from '~/features/board/feature-match'
import { searchWords } from '~/features/board/text-search'

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
const feature = (id: string, rank: string, cell: [string, string], extra: Record<string, unknown> = {}) =>
  card(id, rank, { milestoneId: cell[0], subWorkflowId: cell[1], estimate: 0, ...extra })

// Goals g1 (activities a1, a2) and g2 (a3); releases r1, r2.
const bundle = {
  project: {},
  milestones: [card('r1', 'b'), card('r2', 'c')],
  workflows: [card('g1', 'b'), card('g2', 'c')],
  subWorkflows: [
    card('a1', 'b', { workflowId: 'g1' }),
    card('a2', 'c', { workflowId: 'g1' }),
    card('a3', 'b', { workflowId: 'g2' }),
  ],
  features: [
    feature('f1', 'b', ['r1', 'a1'], {
      title: 'Pay by card',
      color: 'RED',
      estimate: 3,
      annotations: 'RISKY',
    }),
    feature('f2', 'c', ['r1', 'a1'], { title: 'Café menu', description: 'Shows the drinks', estimate: 5 }),
    feature('f3', 'b', ['r1', 'a3'], {
      title: 'Search',
      color: 'BLUE',
      estimate: 2,
      annotations: 'IDEA,RISKY',
    }),
    feature('f4', 'b', ['r2', 'a2'], { title: 'Refunds', status: 'CLOSED', estimate: 8 }),
    feature('f5', 'c', ['r2', 'a2'], { title: 'Invoices', estimate: 1 }),
  ],
  featureComments: [{ kind: 'featureComment', id: 'c1', featureId: 'f5', post: 'Needs the VAT number' }],
  personas: [{ id: 'p1', name: 'Pat' }],
  workflowPersonas: [{ id: 'wp1', personaId: 'p1', workflowId: 'g2' }],
} as unknown as ProjectBundle

const searchTexts = createSearchTextIndex()

function view(query: string, showClosed = false, previous?: BoardView) {
  const filter: BoardFilter = parseBoardFilter(new URLSearchParams(query))
  const texts = searchTexts(bundle.features, bundle.featureComments)
  const matcher = featureMatcher(filter, bundle, (f) => texts.get(f.id) ?? '')
  const grid = buildGrid(bundle, showClosed, undefined, showClosed || filter.status === 'closed')
  return deriveBoardView(
    grid,
    { showClosed, matcher, words: searchWords(filter.q), closedWanted: filter.status === 'closed' },
    previous,
  )
}
const hidden = (v: BoardView) =>
  [...v.cards]
    .filter(([, card]) => card.hidden)
    .map(([id]) => id)
    .sort()

describe('featureMatcher', () => {
  it('is null when nothing narrows the board', () => {
    expect(featureMatcher(NO_FILTER, bundle, () => '')).toBeNull()
    expect(featureMatcher({ ...NO_FILTER, q: '   ' }, bundle, () => '')).toBeNull()
  })
})

describe('deriveBoardView', () => {
  it('counts what the board shows without filters (closed features only with Show closed)', () => {
    expect(view('')).toMatchObject({ filtering: false, shown: 4, total: 4, closedLeftOut: 1 })
    expect(view('', true)).toMatchObject({ shown: 5, total: 5, closedLeftOut: 0 })
  })

  it('searches titles, descriptions and comments, any case and accents, every word', () => {
    expect(view('q=cafe')).toMatchObject({ shown: 1, total: 4 })
    expect(hidden(view('q=CAFE'))).toEqual(['f1', 'f3', 'f5'])
    expect(hidden(view('q=drinks'))).toEqual(['f1', 'f3', 'f5'])
    expect(hidden(view('q=vat'))).toEqual(['f1', 'f2', 'f3'])
    expect(hidden(view('q=pay+card'))).toEqual(['f2', 'f3', 'f5'])
    expect(hidden(view('q=pay+drinks'))).toEqual(['f1', 'f2', 'f3', 'f5'])
  })

  it('marks the matching part of each shown title', () => {
    const v = view('q=caf')
    expect(v.cards.get('f2')).toEqual({ hidden: false, marks: '0-3' })
    expect(view('q=drinks').cards.get('f2')).toBeUndefined() // matched in the description only
  })

  it('filters by colour and annotation (any of the chosen), size range and persona', () => {
    expect(hidden(view('color=RED&color=BLUE'))).toEqual(['f2', 'f5'])
    expect(hidden(view('annotation=RISKY'))).toEqual(['f2', 'f5'])
    expect(hidden(view('annotation=IDEA&annotation=BLOCKED'))).toEqual(['f1', 'f2', 'f5'])
    expect(hidden(view('size=2-3'))).toEqual(['f2', 'f5'])
    expect(hidden(view('size=4-'))).toEqual(['f1', 'f3', 'f5'])
    expect(hidden(view('persona=p1'))).toEqual(['f1', 'f2', 'f5'])
    expect(hidden(view('persona=unknown'))).toEqual(['f1', 'f2', 'f3', 'f5'])
    expect(hidden(view('color=RED&annotation=IDEA'))).toEqual(['f1', 'f2', 'f3', 'f5'])
  })

  it('status=closed brings closed features in even with Show closed off; status=open hides them', () => {
    const closed = view('status=closed')
    // The total counts what the page holds, the closed feature too: never `1 of 4` beside four open ones.
    expect(closed).toMatchObject({ includeClosed: true, shown: 1, total: 5, closedLeftOut: 0 })
    expect(view('q=cafe')).toMatchObject({ shown: 1, total: 4, closedLeftOut: 1 })
    expect(hidden(closed)).toEqual(['f1', 'f2', 'f3', 'f5'])
    expect(view('status=open', true)).toMatchObject({ includeClosed: true, shown: 4, total: 5 })
    expect(hidden(view('status=open', true))).toEqual(['f4'])
  })

  it('sums the shown features per release, goal and activity', () => {
    const v = view('annotation=RISKY')
    expect(v.releases.get('r1')).toEqual({ size: 5, count: 2 })
    expect(v.releases.get('r2')).toEqual({ size: 0, count: 0 })
    expect(v.goals.get('g1')).toEqual({ size: 3, activitySizes: [3, 0] })
    expect(v.goals.get('g2')).toEqual({ size: 2, activitySizes: [2] })
  })

  it('keeps the goal totals that did not change', () => {
    const before = view('q=ca')
    const after = view('q=car', false, before)
    // "Café menu" (goal g1) hides; g2 shows nothing either way.
    expect(after.goals.get('g2')).toBe(before.goals.get('g2'))
    expect(after.goals.get('g1')).not.toBe(before.goals.get('g1'))
  })
})
