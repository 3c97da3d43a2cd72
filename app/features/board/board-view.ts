import { cellKey, type BoardGrid } from './board-grid'
import type { Feature } from '../map/bundle-types'
import type { FeatureMatcher } from './feature-match'
import { highlightRanges, rangesKey } from './text-search'

/** A feature card under the search and filters: left out, and the highlighted ranges of its title (rangesKey). */
export type CardFilterState = { hidden: boolean; marks: string | undefined }
export type Totals = { size: number; count: number }
export type GoalTotals = { size: number; activitySizes: number[] }

/**
 * The grid as the search and filters show it (CONTRACT §9). Feature cards that do not match stay
 * in the page but hidden; goals, activities and releases stay. `shown` of `total` features: total
 * is every feature in the page's shown cells (closed ones with Show closed or the closed filter),
 * as the releases' counts count them.
 */
export type BoardView = {
  filtering: boolean
  /** Closed features are in the page: `Show closed` is on, or the status filter asks for them. */
  includeClosed: boolean
  /** Only the cards that are hidden or marked; every other card shows plainly. */
  cards: ReadonlyMap<string, CardFilterState>
  releases: ReadonlyMap<string, Totals>
  goals: ReadonlyMap<string, GoalTotals>
  shown: number
  total: number
  /** Closed features in shown cells left out of `total` (and of every size and count): the counts then say `open`. */
  closedLeftOut: number
}

export type ViewOptions = {
  showClosed: boolean
  /** Null when nothing narrows the board. */
  matcher: FeatureMatcher | null
  /** Normalized search words, for highlighting titles. */
  words: readonly string[]
  closedWanted: boolean
}

const NO_CARDS: ReadonlyMap<string, CardFilterState> = new Map()
const HIDDEN: CardFilterState = { hidden: true, marks: undefined }

const sameNumbers = (a: readonly number[], b: readonly number[]) =>
  a.length === b.length && a.every((n, i) => n === b[i])

/**
 * Derives the board view. Given the `previous` view, every goal total that did not change is the
 * previous object, so a keystroke re-renders only the goals whose sums change.
 */
export function deriveBoardView(grid: BoardGrid, options: ViewOptions, previous?: BoardView): BoardView {
  const { showClosed, matcher, words, closedWanted } = options
  const includeClosed = showClosed || closedWanted
  const inPage = (f: Feature) => includeClosed || f.status !== 'CLOSED'
  let total = 0
  let closedLeftOut = 0
  if (!matcher) {
    for (const release of grid.releases)
      for (const goal of grid.goals)
        for (const activity of goal.activities)
          for (const f of grid.cells.get(cellKey(release.milestone.id, activity.id)) ?? [])
            if (inPage(f)) total++
            else closedLeftOut++
    return {
      filtering: false,
      includeClosed,
      cards: NO_CARDS,
      releases: new Map(),
      goals: new Map(),
      shown: total,
      total,
      closedLeftOut,
    }
  }

  let shown = 0
  const cards = new Map<string, CardFilterState>()
  const releases = new Map<string, Totals>()
  const activitySize = new Map<string, number>()
  for (const { milestone } of grid.releases) {
    const totals = { size: 0, count: 0 }
    for (const goal of grid.goals) {
      for (const activity of goal.activities) {
        for (const f of grid.cells.get(cellKey(milestone.id, activity.id)) ?? []) {
          if (!inPage(f)) {
            closedLeftOut++
            continue
          }
          total++
          if (!matcher(f)) {
            cards.set(f.id, HIDDEN)
            continue
          }
          shown++
          totals.size += f.estimate
          totals.count++
          activitySize.set(activity.id, (activitySize.get(activity.id) ?? 0) + f.estimate)
          if (words.length > 0) {
            const ranges = highlightRanges(f.title, words)
            if (ranges.length > 0) cards.set(f.id, { hidden: false, marks: rangesKey(ranges) })
          }
        }
      }
    }
    releases.set(milestone.id, totals)
  }
  const goals = new Map<string, GoalTotals>()
  for (const goal of grid.goals) {
    const activitySizes = goal.activities.map((a) => activitySize.get(a.id) ?? 0)
    const size = activitySizes.reduce((sum, n) => sum + n, 0)
    const before = previous?.goals.get(goal.workflow.id)
    goals.set(
      goal.workflow.id,
      before && before.size === size && sameNumbers(before.activitySizes, activitySizes)
        ? before
        : { size, activitySizes },
    )
  }
  return { filtering: true, includeClosed, cards, releases, goals, shown, total, closedLeftOut }
}
