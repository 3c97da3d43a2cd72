import { cellKey, type BoardGrid } from './board-grid'
import type { Feature } from '../map/bundle-types'

/**
 * Arrow-key moves between the board's items (CONTRACT §9). Items are ids: cards, and where the
 * board is editable the `+` of each cell and the `Add activity` of a goal without activities.
 *
 * - Goal row: goals left to right. Activity row: each goal's activities (or its add button).
 * - Each release row: the release card, then one column per activity, each a list top to bottom.
 * - Arrows go card to card: a cell's `+` is a stop only while the cell shows no card (so an
 *   empty cell can be reached and filled; in a filled cell `n` adds). A filled cell's `+`, when
 *   it has the focus anyway (clicked), counts as just below the cell's last card.
 * - Left/Right: the nearest stop in the next column with one that way, in the same row.
 * - Up/Down: within a cell, then on to the same column in the releases above or below;
 *   above the first release are the column's activity and then its goal.
 */
export type NavLayout = {
  goals: string[]
  /** The activity row, left to right: `column` is the activity's column, null for an add button. */
  activityRow: { id: string; goalId: string; column: number | null }[]
  /** Each column: the cell's shown cards top to bottom, then its `+` (an id from addFeatureNavId). */
  releases: { id: string; columns: string[][] }[]
}

const isAddFeature = (id: string) => id.startsWith('add:')

/** A cell's stops: its cards, or its `+` alone when it shows none. */
function stops(items: string[]): string[] {
  const cards = items.filter((id) => !isAddFeature(id))
  return cards.length > 0 ? cards : items
}

export type Direction = 'left' | 'right' | 'up' | 'down'

type Place =
  | { row: 'goal'; index: number }
  | { row: 'activity'; index: number }
  | { row: 'release'; release: number }
  | { row: 'cell'; release: number; column: number; index: number }

function locate(layout: NavLayout, id: string): Place | null {
  const goal = layout.goals.indexOf(id)
  if (goal !== -1) return { row: 'goal', index: goal }
  const activity = layout.activityRow.findIndex((a) => a.id === id)
  if (activity !== -1) return { row: 'activity', index: activity }
  for (let r = 0; r < layout.releases.length; r++) {
    const release = layout.releases[r]
    if (release.id === id) return { row: 'release', release: r }
    for (let c = 0; c < release.columns.length; c++) {
      if (!release.columns[c].includes(id)) continue
      const cell = stops(release.columns[c])
      // A filled cell's `+` is not a stop; it sits just below the last card.
      const index = cell.indexOf(id)
      return { row: 'cell', release: r, column: c, index: index === -1 ? cell.length : index }
    }
  }
  return null
}

const atIndex = (items: string[], index: number) => items[Math.min(index, items.length - 1)]

/** The first item of `column` in the releases from `from` on, going `step` (+1 down, -1 up). */
function scanColumn(layout: NavLayout, column: number, from: number, step: 1 | -1): string | null {
  for (let r = from; r >= 0 && r < layout.releases.length; r += step) {
    const items = stops(layout.releases[r].columns[column] ?? [])
    if (items.length > 0) return step === 1 ? items[0] : items[items.length - 1]
  }
  return null
}

/** The nearest item in the next non-empty column from `column`, going `step`, in release `r`. */
function scanRow(layout: NavLayout, r: number, column: number, index: number, step: 1 | -1): string | null {
  const columns = layout.releases[r].columns
  for (let c = column + step; c >= 0 && c < columns.length; c += step) {
    const items = stops(columns[c])
    if (items.length > 0) return atIndex(items, index)
  }
  return null
}

/** The item an arrow key moves to from `id`, or null when there is none that way. */
export function neighbour(layout: NavLayout, id: string, direction: Direction): string | null {
  const place = locate(layout, id)
  if (!place) return null
  const { goals, activityRow, releases } = layout
  switch (place.row) {
    case 'goal': {
      if (direction === 'left') return goals[place.index - 1] ?? null
      if (direction === 'right') return goals[place.index + 1] ?? null
      if (direction === 'down') return activityRow.find((a) => a.goalId === id)?.id ?? null
      return null
    }
    case 'activity': {
      const item = activityRow[place.index]
      if (direction === 'left') return activityRow[place.index - 1]?.id ?? null
      if (direction === 'right') return activityRow[place.index + 1]?.id ?? null
      if (direction === 'up') return item.goalId
      return item.column === null ? null : scanColumn(layout, item.column, 0, 1)
    }
    case 'release': {
      if (direction === 'up') return releases[place.release - 1]?.id ?? null
      if (direction === 'down') return releases[place.release + 1]?.id ?? null
      if (direction === 'right') return scanRow(layout, place.release, -1, 0, 1)
      return null
    }
    case 'cell': {
      const { release, column, index } = place
      const items = stops(releases[release].columns[column])
      if (direction === 'up') {
        if (index > 0) return items[index - 1]
        return (
          scanColumn(layout, column, release - 1, -1) ??
          activityRow.find((a) => a.column === column)?.id ??
          null
        )
      }
      if (direction === 'down') {
        if (index < items.length - 1) return items[index + 1]
        return scanColumn(layout, column, release + 1, 1)
      }
      if (direction === 'left') return scanRow(layout, release, column, index, -1) ?? releases[release].id
      return scanRow(layout, release, column, index, 1)
    }
  }
}

/**
 * Where the focus goes when item `id` leaves the board from its dialog (deleted, or closed while
 * closed cards are hidden): the card after it in its cell, else the one before, else the cell's
 * `+`; the next release, goal or activity of its row, else the one before; null when none.
 */
export function stopAfterRemoval(layout: NavLayout, id: string): string | null {
  const place = locate(layout, id)
  if (!place) return null
  const { goals, activityRow, releases } = layout
  const beside = (list: string[], at: number) => list[at + 1] ?? list[at - 1] ?? null
  switch (place.row) {
    case 'cell': {
      const items = releases[place.release].columns[place.column]
      const cards = items.filter((item) => !isAddFeature(item) && item !== id)
      return (
        cards[place.index] ?? cards[place.index - 1] ?? items.find(isAddFeature) ?? releases[place.release].id
      )
    }
    case 'release':
      return beside(
        releases.map((r) => r.id),
        place.release,
      )
    case 'goal':
      return beside(goals, place.index)
    case 'activity': {
      const goalId = activityRow[place.index].goalId
      const row = activityRow.filter((a) => a.goalId === goalId).map((a) => a.id)
      return beside(row, row.indexOf(id)) ?? goalId
    }
  }
}

export const addFeatureNavId = (milestoneId: string, activityId: string) => `add:${milestoneId}:${activityId}`
export const addActivityNavId = (goalId: string) => `add-activity:${goalId}`

/**
 * The layout of what the board shows: `shown(feature)` says whether a feature card is in view
 * (not closed away, not filtered out); `editable` adds the add buttons; `folds` leaves out
 * what folded goals and releases hide. `drawn(feature)`, given (at 25 %), says which cards are in
 * the page (the search only hides them): a cell with any has no `+` then.
 */
export function navLayout(
  grid: BoardGrid,
  shown: (feature: Feature, cell: string) => boolean,
  editable: boolean,
  folds?: { goals: ReadonlySet<string>; releases: ReadonlySet<string> },
  drawn?: (feature: Feature) => boolean,
): NavLayout {
  const activityRow: NavLayout['activityRow'] = []
  const columns: string[] = []
  for (const goal of grid.goals) {
    // A folded goal is a stop in the goal row only; a folded release, in its row only (CONTRACT §15).
    if (folds?.goals.has(goal.workflow.id)) continue
    if (goal.activities.length === 0 && editable) {
      activityRow.push({ id: addActivityNavId(goal.workflow.id), goalId: goal.workflow.id, column: null })
    }
    for (const activity of goal.activities) {
      activityRow.push({ id: activity.id, goalId: goal.workflow.id, column: columns.length })
      columns.push(activity.id)
    }
  }
  const releases = grid.releases.map(({ milestone }) => ({
    id: milestone.id,
    columns: columns.map((activityId) => {
      if (folds?.releases.has(milestone.id)) return []
      const key = cellKey(milestone.id, activityId)
      const features = grid.cells.get(key) ?? []
      const items = features.filter((f) => shown(f, key)).map((f) => f.id)
      if (editable && !(drawn && features.some(drawn))) items.push(addFeatureNavId(milestone.id, activityId))
      return items
    }),
  }))
  return { goals: grid.goals.map((g) => g.workflow.id), activityRow, releases }
}

/**
 * The card a tile's link opens: the last path segment of its `href` attribute as written
 * (`/{workspace}/projects/{id}/f/{card}?…`). Read from the attribute, not `a.pathname`: the
 * browser parses the whole URL for that, and a search keystroke on a big map looks up every
 * tile (a fifth of a keystroke's time at 4,000 cards).
 */
export function cardIdOfHref(href: string): string {
  const end = href.search(/[?#]/)
  const path = end < 0 ? href : href.slice(0, end)
  return path.slice(path.lastIndexOf('/') + 1)
}
