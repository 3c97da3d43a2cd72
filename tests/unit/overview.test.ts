import { describe, expect, it } from 'vitest'
import {
  DEFAULT_VIEW,
  firstWords,
  fitZoom,
  foldedGoalLine,
  foldedReleaseLine,
  foldNote,
  foldPlaceOf,
  goalReleaseKey,
  knownOnly,
  mapProgress,
  mapWidthAt100,
  mostCardsInACell,
  parseStoredView,
  pngScale,
  progressOf,
  progressShare,
  progressShort,
  progressText,
  releaseSummary,
  toggleId,
  zoomIn,
  zoomOut,
} from '~/features/board/overview'
import { mapViewSchema } from '~/features/board/view-schema'

const feature = (id: string, milestoneId: string, subWorkflowId: string, estimate: number, closed = false) =>
  ({ id, milestoneId, subWorkflowId, estimate, status: closed ? 'CLOSED' : 'OPEN' }) as never

const bundle = {
  subWorkflows: [
    { id: 'a1', workflowId: 'g1' },
    { id: 'a2', workflowId: 'g1' },
    { id: 'a3', workflowId: 'g2' },
  ] as never[],
  features: [
    feature('f1', 'r1', 'a1', 3, true),
    feature('f2', 'r1', 'a2', 5),
    feature('f3', 'r1', 'a3', 2, true),
    feature('f4', 'r2', 'a1', 8),
  ],
}

describe('progress (CONTRACT §15)', () => {
  const progress = mapProgress(bundle)

  it('counts a release’s closed features of all its features, with their size', () => {
    expect(releaseSummary(progress, 'r1')).toEqual({ done: 2, total: 3, size: 10 })
    expect(progressText(releaseSummary(progress, 'r1'))).toBe('2 of 3 done')
    expect(progressShare(releaseSummary(progress, 'r1'))).toBeCloseTo(2 / 3)
    expect(releaseSummary(progress, 'empty')).toEqual({ done: 0, total: 0, size: 0 })
    expect(progressShare(releaseSummary(progress, 'empty'))).toBe(0)
  })

  it('gives each goal and activity `d/n`', () => {
    expect(progressShort(progressOf(progress.goals, 'g1'))).toBe('1/3')
    expect(progressShort(progressOf(progress.goals, 'g2'))).toBe('1/1')
    expect(progressShort(progressOf(progress.activities, 'a1'))).toBe('1/2')
    expect(progressShort(progressOf(progress.activities, 'a9'))).toBe('0/0')
  })

  it('counts a goal’s features in each release for its folded column', () => {
    expect(progress.goalInRelease.get(goalReleaseKey('g1', 'r1'))).toBe(2)
    expect(progress.goalInRelease.get(goalReleaseKey('g1', 'r2'))).toBe(1)
    expect(progress.goalInRelease.get(goalReleaseKey('g2', 'r2'))).toBeUndefined()
  })
})

describe('what a fold shows', () => {
  it('a folded release: `{n} features · size {s} · {d} of {n} done`', () => {
    expect(foldedReleaseLine({ done: 2, total: 3, size: 10 })).toBe('3 features · size 10 · 2 of 3 done')
    expect(foldedReleaseLine({ done: 0, total: 0, size: 0 })).toBe('0 features · size 0 · 0 of 0 done')
  })
  it('a folded goal: `{n} activities`', () => {
    expect(foldedGoalLine(4)).toBe('4 activities')
  })
  it('folds and unfolds one id, keeping the others', () => {
    expect(toggleId(['a', 'b'], 'c', true)).toEqual(['a', 'b', 'c'])
    expect(toggleId(['a', 'b'], 'a', true)).toEqual(['a', 'b'])
    expect(toggleId(['a', 'b'], 'a', false)).toEqual(['b'])
  })
})

describe('the fold key (`c`) on a focused card', () => {
  const map = {
    workflows: [{ id: 'g1' }, { id: 'g2' }] as never[],
    milestones: [{ id: 'r1' }] as never[],
    subWorkflows: bundle.subWorkflows,
  }
  it('folds a goal or a release from its card, and an activity’s goal from the activity', () => {
    expect(foldPlaceOf('g2', map)).toEqual({ kind: 'goal', id: 'g2' })
    expect(foldPlaceOf('r1', map)).toEqual({ kind: 'release', id: 'r1' })
    expect(foldPlaceOf('a2', map)).toEqual({ kind: 'goal', id: 'g1' })
  })
  it('folds nothing from a feature or a cell’s `+`, which sit in a goal and a release at once', () => {
    expect(foldPlaceOf('f1', map)).toBeNull()
    expect(foldPlaceOf('add:r1:a1', map)).toBeNull()
  })
  it('says what it did, with what the folded place shows', () => {
    expect(foldNote({ kind: 'goal', id: 'g1' }, 'Shop', true, '2 activities')).toBe(
      'Collapsed goal Shop: 2 activities',
    )
    expect(foldNote({ kind: 'release', id: 'r1' }, 'Later', false, 'ignored')).toBe('Expanded release Later')
  })
})

describe('zoom', () => {
  it('steps through 100, 75, 50, 25 and stops at the ends', () => {
    expect(zoomOut(100)).toBe(75)
    expect(zoomOut(25)).toBe(25)
    expect(zoomIn(50)).toBe(75)
    expect(zoomIn(100)).toBe(100)
  })
  it('Fit picks the largest level at which the whole width fits', () => {
    expect(fitZoom(1000, 1200)).toBe(100)
    expect(fitZoom(1000, 1000)).toBe(100)
    expect(fitZoom(1000, 999)).toBe(75)
    expect(fitZoom(4600, 1280)).toBe(25)
    expect(fitZoom(2000, 1000)).toBe(50)
    expect(fitZoom(99_999, 800)).toBe(25)
  })
  it('a 25 % tile shows the first words', () => {
    expect(firstWords('Pay by card at the till')).toBe('Pay by card…')
    expect(firstWords('  Sign in ')).toBe('Sign in')
    expect(firstWords('Pay  by card')).toBe('Pay  by card')
    expect(firstWords('Refunds')).toBe('Refunds')
    expect(firstWords(' ')).toBe('')
  })
})

describe('the view', () => {
  it('accepts folds and a level, refuses other levels and non-lists', () => {
    expect(
      mapViewSchema.safeParse({ collapsedWorkflows: ['x'], collapsedMilestones: [], zoom: 50 }).success,
    ).toBe(true)
    expect(mapViewSchema.safeParse({ ...DEFAULT_VIEW, zoom: 60 }).success).toBe(false)
    expect(mapViewSchema.safeParse({ ...DEFAULT_VIEW, collapsedWorkflows: 'x' }).success).toBe(false)
    expect(mapViewSchema.safeParse({ ...DEFAULT_VIEW, collapsedMilestones: [1] }).success).toBe(false)
  })
  it('reads what the browser kept, or the default', () => {
    expect(parseStoredView(JSON.stringify({ ...DEFAULT_VIEW, zoom: 25 })).zoom).toBe(25)
    expect(parseStoredView('{broken')).toEqual(DEFAULT_VIEW)
    expect(parseStoredView(null)).toEqual(DEFAULT_VIEW)
  })
  it('judges a stored view as the API judges a body', () => {
    const cases = [
      DEFAULT_VIEW,
      { collapsedWorkflows: ['a'], collapsedMilestones: [], zoom: 50 },
      { collapsedWorkflows: ['a'], collapsedMilestones: [], zoom: 60 },
      { collapsedWorkflows: 'a', collapsedMilestones: [], zoom: 100 },
      { collapsedWorkflows: [1], collapsedMilestones: [], zoom: 100 },
      { collapsedWorkflows: ['x'.repeat(65)], collapsedMilestones: [], zoom: 100 },
      { collapsedWorkflows: [], zoom: 100 },
      [],
      null,
    ]
    for (const view of cases) {
      const stored = parseStoredView(JSON.stringify(view))
      expect(stored, JSON.stringify(view)).toEqual(
        mapViewSchema.safeParse(view).success ? view : DEFAULT_VIEW,
      )
    }
  })
  it('leaves out ids that no longer exist', () => {
    const view = { collapsedWorkflows: ['g1', 'gone'], collapsedMilestones: ['r9', 'r1'], zoom: 75 as const }
    expect(knownOnly(view, new Set(['g1']), new Set(['r1']))).toEqual({
      collapsedWorkflows: ['g1'],
      collapsedMilestones: ['r1'],
      zoom: 75,
    })
  })
})

describe('the map’s width for Fit', () => {
  it('adds each goal’s columns, a folded goal’s narrow one, and the gaps', () => {
    expect(
      mapWidthAt100([
        { activities: 3, folded: false },
        { activities: 0, folded: false },
        { activities: 9, folded: true },
      ]),
    ).toBe(3 * 184 + 184 + 112 + 2 * 14)
    expect(mapWidthAt100([])).toBe(0)
  })
})

describe('a release row’s estimated height', () => {
  const f = (status: 'OPEN' | 'CLOSED') => ({ status }) as never
  it('counts the fullest cell, closed cards only when they are shown', () => {
    const cells = [[f('OPEN'), f('CLOSED'), f('CLOSED')], undefined, [f('OPEN'), f('OPEN')], []]
    expect(mostCardsInACell(cells, false)).toBe(2)
    expect(mostCardsInACell(cells, true)).toBe(3)
    expect(mostCardsInACell([undefined, []], true)).toBe(0)
  })
})

describe('Export PNG’s scale', () => {
  it('is 2× where the map fits, and scales wider maps down to 16,000 px', () => {
    expect(pngScale(1200, 800)).toBe(2)
    expect(pngScale(8000, 800)).toBe(2)
    expect(pngScale(16_000, 800)).toBe(1)
    expect(pngScale(40_000, 800) * 40_000).toBeCloseTo(16_000)
    // A very tall map stays within what a canvas can hold.
    expect(pngScale(4000, 30_000) * 30_000).toBeLessThanOrEqual(32_000)
    expect(pngScale(6000, 20_000) ** 2 * 6000 * 20_000).toBeLessThanOrEqual(260_000_000)
  })
})
