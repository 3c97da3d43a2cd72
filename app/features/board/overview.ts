import type { Feature, ProjectBundle } from '../map/bundle-types'

/**
 * The whole map at a glance (CONTRACT §15): a member's view of a board (folds and zoom), what a
 * folded goal or release shows, each release's, goal's and activity's progress, and Fit's zoom.
 */
export const ZOOM_LEVELS = [100, 75, 50, 25] as const
export type Zoom = (typeof ZOOM_LEVELS)[number]

/** Far more than any map has; a bound so a body cannot grow the row without end. */
export const MAX_FOLDED = 5000
/** The longest id a fold may name. */
export const MAX_FOLDED_ID = 64

/** A member's view of a board: the body of `PUT /v1/projects/{id}/view` (its schema: view-schema.ts). */
export type MapView = { collapsedWorkflows: string[]; collapsedMilestones: string[]; zoom: Zoom }

export const DEFAULT_VIEW: MapView = { collapsedWorkflows: [], collapsedMilestones: [], zoom: 100 }

/** A view read back from storage (the browser's, for the public link): anything unreadable is the default. */
export function parseStoredView(text: string | null): MapView {
  if (!text) return DEFAULT_VIEW
  try {
    const parsed: unknown = JSON.parse(text)
    return isMapView(parsed) ? parsed : DEFAULT_VIEW
  } catch {
    return DEFAULT_VIEW
  }
}

// The board's own script checks a stored view by hand: zod stays out of the board's bundle (its
// 180 KB budget); the API judges bodies with the schema in view-schema.ts, to the same rules.
const isFoldedIds = (value: unknown): value is string[] =>
  Array.isArray(value) &&
  value.length <= MAX_FOLDED &&
  value.every((id) => typeof id === 'string' && id.length <= MAX_FOLDED_ID)

function isMapView(value: unknown): value is MapView {
  if (typeof value !== 'object' || value === null) return false
  const view = value as Record<string, unknown>
  return (
    isFoldedIds(view.collapsedWorkflows) &&
    isFoldedIds(view.collapsedMilestones) &&
    ZOOM_LEVELS.includes(view.zoom as Zoom)
  )
}

/** The view as kept, with the ids of goals and releases that no longer exist left out. */
export function knownOnly(
  view: MapView,
  workflowIds: ReadonlySet<string>,
  milestoneIds: ReadonlySet<string>,
) {
  return {
    collapsedWorkflows: view.collapsedWorkflows.filter((id) => workflowIds.has(id)),
    collapsedMilestones: view.collapsedMilestones.filter((id) => milestoneIds.has(id)),
    zoom: view.zoom,
  }
}

export const zoomIn = (zoom: Zoom): Zoom => ZOOM_LEVELS[Math.max(0, ZOOM_LEVELS.indexOf(zoom) - 1)]
export const zoomOut = (zoom: Zoom): Zoom =>
  ZOOM_LEVELS[Math.min(ZOOM_LEVELS.length - 1, ZOOM_LEVELS.indexOf(zoom) + 1)]

/** `Fit`: the largest level at which the map's width (as drawn at 100 %) fits the window; 25 % if none does. */
export function fitZoom(widthAt100: number, available: number): Zoom {
  return ZOOM_LEVELS.find((level) => (widthAt100 * level) / 100 <= available) ?? 25
}

export type Progress = { done: number; total: number }
/** Done = closed (a feature closed on a linked tracker is closed here through sync). */
const isDone = (f: Pick<Feature, 'status'>) => f.status === 'CLOSED'

export const progressText = ({ done, total }: Progress) => `${done} of ${total} done`
export const progressShort = ({ done, total }: Progress) => `${done}/${total}`
/** The bar's share, 0 to 1 (an empty release is at 0). */
export const progressShare = ({ done, total }: Progress) => (total === 0 ? 0 : done / total)

export type ReleaseSummary = Progress & { size: number }
export type MapProgress = {
  releases: ReadonlyMap<string, ReleaseSummary>
  goals: ReadonlyMap<string, Progress>
  activities: ReadonlyMap<string, Progress>
  /** Features per goal and release: `goalId|milestoneId` → count (a folded goal's column). */
  goalInRelease: ReadonlyMap<string, number>
}

export const goalReleaseKey = (workflowId: string, milestoneId: string) => `${workflowId}|${milestoneId}`

/**
 * Every release's, goal's and activity's progress over all their features, closed ones included
 * whatever the board shows, and untouched by search and filters (CONTRACT §15).
 */
export function mapProgress(bundle: Pick<ProjectBundle, 'features' | 'subWorkflows'>): MapProgress {
  const goalOf = new Map(bundle.subWorkflows.map((a) => [a.id, a.workflowId]))
  const releases = new Map<string, ReleaseSummary>()
  const goals = new Map<string, Progress>()
  const activities = new Map<string, Progress>()
  const goalInRelease = new Map<string, number>()
  const add = <T extends Progress>(map: Map<string, T>, id: string, fresh: () => T, done: boolean) => {
    const entry = map.get(id) ?? fresh()
    entry.total++
    if (done) entry.done++
    map.set(id, entry)
    return entry
  }
  for (const f of bundle.features) {
    const done = isDone(f)
    add(releases, f.milestoneId, () => ({ done: 0, total: 0, size: 0 }), done).size += f.estimate
    add(activities, f.subWorkflowId, () => ({ done: 0, total: 0 }), done)
    const goalId = goalOf.get(f.subWorkflowId)
    if (goalId === undefined) continue
    add(goals, goalId, () => ({ done: 0, total: 0 }), done)
    const key = goalReleaseKey(goalId, f.milestoneId)
    goalInRelease.set(key, (goalInRelease.get(key) ?? 0) + 1)
  }
  return { releases, goals, activities, goalInRelease }
}

const NONE: ReleaseSummary = { done: 0, total: 0, size: 0 }
export const releaseSummary = (progress: MapProgress, milestoneId: string) =>
  progress.releases.get(milestoneId) ?? NONE
export const progressOf = (map: ReadonlyMap<string, Progress>, id: string): Progress => map.get(id) ?? NONE

/** A folded release's one line: `{n} features · size {s} · {d} of {n} done`. */
export const foldedReleaseLine = ({ done, total, size }: ReleaseSummary) =>
  `${total} features · size ${size} · ${progressText({ done, total })}`

/** A folded goal's column: `{n} activities`. */
export const foldedGoalLine = (activities: number) => `${activities} activities`

/**
 * The first words of a title for a 25 % tile (the whole title stays its name and tooltip), spaced
 * as in the title so the search's highlight ranges (offsets into the title) still fit them.
 */
export function firstWords(title: string, words = 3): string {
  const start = title.search(/\S/)
  if (start === -1) return ''
  const shown = new RegExp(`^\\S+(?:\\s+\\S+){0,${words - 1}}`).exec(title.slice(start))![0]
  return title.slice(start + shown.length).trim() ? `${shown}…` : shown
}

/** What the fold key (`c`) folds from a focused card: a goal, a release, or an activity's goal. */
export type FoldPlace = { kind: 'goal' | 'release'; id: string }

/** The place `c` folds or unfolds from item `navId`; null on a feature or a cell's `+` (which sit in both). */
export function foldPlaceOf(
  navId: string,
  map: Pick<ProjectBundle, 'workflows' | 'milestones' | 'subWorkflows'>,
): FoldPlace | null {
  if (map.workflows.some((w) => w.id === navId)) return { kind: 'goal', id: navId }
  if (map.milestones.some((m) => m.id === navId)) return { kind: 'release', id: navId }
  const activity = map.subWorkflows.find((s) => s.id === navId)
  return activity ? { kind: 'goal', id: activity.workflowId } : null
}

/** What a fold by key says to a screen reader: `Collapsed goal Shop: 2 activities`, `Expanded release Later`. */
export function foldNote(place: FoldPlace, title: string, folded: boolean, foldedLine: string): string {
  const what = `${folded ? 'Collapsed' : 'Expanded'} ${place.kind} ${title}`
  return folded ? `${what}: ${foldedLine}` : what
}

/** Folds one id in or out of a list, keeping the others' order. */
export const toggleId = (ids: readonly string[], id: string, folded: boolean) =>
  folded ? (ids.includes(id) ? [...ids] : [...ids, id]) : ids.filter((x) => x !== id)

/** A column's width at 100 % (app.css `--column`), a folded goal's, and the gap between goals. */
export const COLUMN_AT_100 = 184
export const FOLDED_COLUMN_AT_100 = 112
export const GOAL_GAP_AT_100 = 14

/** The map's width at 100 %: each goal's columns (one narrow one when folded) and the gaps between. */
export function mapWidthAt100(goals: readonly { activities: number; folded: boolean }[]): number {
  const columns = goals.reduce(
    (sum, g) => sum + (g.folded ? FOLDED_COLUMN_AT_100 : Math.max(1, g.activities) * COLUMN_AT_100),
    0,
  )
  return columns + Math.max(0, goals.length - 1) * GOAL_GAP_AT_100
}

/** The widest picture `Export PNG` draws, and what a browser's canvas holds at most. */
export const PNG_MAX_WIDTH = 16_000
const CANVAS_MAX_SIDE = 32_000
const CANVAS_MAX_AREA = 260_000_000

/** The picture's scale: 2× where it fits, less for maps wider than 16,000 px at that scale. */
export function pngScale(width: number, height: number): number {
  if (width <= 0 || height <= 0) return 2
  return Math.min(
    2,
    PNG_MAX_WIDTH / width,
    CANVAS_MAX_SIDE / height,
    Math.sqrt(CANVAS_MAX_AREA / (width * height)),
  )
}

/**
 * The most cards one cell of a release shows (closed ones only with `Show closed`): the board
 * estimates the height of the row's parts it has not drawn yet from it (app.css).
 */
export const mostCardsInACell = (cells: Iterable<readonly Feature[] | undefined>, includeClosed: boolean) =>
  Math.max(
    0,
    ...Array.from(cells, (f = []) => f.filter((x) => includeClosed || x.status !== 'CLOSED').length),
  )
