import type { Feature, Milestone, ProjectBundle, SubWorkflow, Workflow } from '../map/bundle-types'

/** Rank order; ids break ties so the order is total even mid-edit. */
export function byRank<T extends { rank: string; id: string }>(a: T, b: T): number {
  return a.rank < b.rank ? -1 : a.rank > b.rank ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0
}

export const cellKey = (milestoneId: string, subWorkflowId: string) => `${milestoneId}|${subWorkflowId}`

/** A goal with its shown activities; `activitySizes[i]` is the size of `activities[i]`. */
export type GoalColumn = {
  workflow: Workflow
  activities: SubWorkflow[]
  activitySizes: number[]
  size: number
}
/** `size` and `count` add up the release's features the board counts; `closed`: its closed ones left out. */
export type ReleaseRow = { milestone: Milestone; size: number; count: number; closed: number }

export type BoardGrid = {
  goals: GoalColumn[]
  releases: ReleaseRow[]
  /** Every feature of each release × activity cell, in rank order, closed ones included. */
  cells: Map<string, Feature[]>
  activitySize: Map<string, number>
  hidden: { releases: number; goals: number; activities: number }
  /** Closed features in shown cells that the sizes and counts leave out. */
  closedLeftOut: number
}

const visible = (showClosed: boolean) => (card: { status: string }) => showClosed || card.status !== 'CLOSED'

/**
 * Derives the board's grid from a bundle. Closed cards are left out unless `showClosed`.
 * Sizes and counts add up the features the board shows (SPEC §4's sums, of what is in view): a
 * feature in a shown release and a shown activity, and closed only when `countClosed` (Show
 * closed, or the filter asking for closed features). So a release's count, the goals' sizes and
 * the toolbar's total agree (issue 43). Given the `previous` grid, every column, row and cell
 * that has not changed is the previous object, so the board's memoised parts skip them (a drop
 * re-renders two cells, not two thousand).
 */
export function buildGrid(
  bundle: ProjectBundle,
  showClosed: boolean,
  previous?: BoardGrid,
  countClosed = showClosed,
): BoardGrid {
  const next = deriveGrid(bundle, showClosed, countClosed)
  return previous ? reuseUnchanged(previous, next) : next
}

const sameItems = <T>(a: readonly T[] | undefined, b: readonly T[]) =>
  a !== undefined && a.length === b.length && a.every((item, i) => item === b[i])

function reuseUnchanged(previous: BoardGrid, next: BoardGrid): BoardGrid {
  const cells = new Map<string, Feature[]>()
  for (const [key, list] of next.cells) {
    const before = previous.cells.get(key)
    cells.set(key, before && sameItems(before, list) ? before : list)
  }
  const goalsBefore = new Map(previous.goals.map((g) => [g.workflow.id, g]))
  const goals = next.goals.map((goal) => {
    const before = goalsBefore.get(goal.workflow.id)
    const same =
      before &&
      before.workflow === goal.workflow &&
      before.size === goal.size &&
      sameItems(before.activities, goal.activities) &&
      sameItems(before.activitySizes, goal.activitySizes)
    return same ? before : goal
  })
  const releasesBefore = new Map(previous.releases.map((r) => [r.milestone.id, r]))
  const releases = next.releases.map((release) => {
    const before = releasesBefore.get(release.milestone.id)
    const same =
      before &&
      before.milestone === release.milestone &&
      before.size === release.size &&
      before.count === release.count &&
      before.closed === release.closed
    return same ? before : release
  })
  return {
    ...next,
    cells,
    goals: sameItems(previous.goals, goals) ? previous.goals : goals,
    releases: sameItems(previous.releases, releases) ? previous.releases : releases,
  }
}

function deriveGrid(bundle: ProjectBundle, showClosed: boolean, countClosed: boolean): BoardGrid {
  const show = visible(showClosed)
  const workflows = [...bundle.workflows].sort(byRank)
  const milestones = [...bundle.milestones].sort(byRank)
  const activitiesByGoal = new Map<string, SubWorkflow[]>()
  for (const activity of [...bundle.subWorkflows].sort(byRank)) {
    const list = activitiesByGoal.get(activity.workflowId) ?? []
    list.push(activity)
    activitiesByGoal.set(activity.workflowId, list)
  }
  const shownGoals = workflows.filter(show)
  const shownActivities = new Set(
    shownGoals.flatMap((w) => (activitiesByGoal.get(w.id) ?? []).filter(show).map((a) => a.id)),
  )
  const shownReleases = milestones.filter(show)
  const shownReleaseIds = new Set(shownReleases.map((m) => m.id))

  const cells = new Map<string, Feature[]>()
  const activitySize = new Map<string, number>()
  const releaseTotals = new Map<string, { size: number; count: number; closed: number }>()
  let closedLeftOut = 0
  for (const feature of [...bundle.features].sort(byRank)) {
    const key = cellKey(feature.milestoneId, feature.subWorkflowId)
    const list = cells.get(key)
    if (list) list.push(feature)
    else cells.set(key, [feature])
    if (!shownReleaseIds.has(feature.milestoneId) || !shownActivities.has(feature.subWorkflowId)) continue
    const totals = releaseTotals.get(feature.milestoneId) ?? { size: 0, count: 0, closed: 0 }
    releaseTotals.set(feature.milestoneId, totals)
    if (feature.status === 'CLOSED' && !countClosed) {
      totals.closed += 1
      closedLeftOut += 1
      continue
    }
    activitySize.set(feature.subWorkflowId, (activitySize.get(feature.subWorkflowId) ?? 0) + feature.estimate)
    totals.size += feature.estimate
    totals.count += 1
  }
  let hiddenActivities = 0
  const goals = shownGoals.map((workflow) => {
    const all = activitiesByGoal.get(workflow.id) ?? []
    const activities = all.filter(show)
    hiddenActivities += all.length - activities.length
    const activitySizes = activities.map((a) => activitySize.get(a.id) ?? 0)
    const size = activitySizes.reduce((sum, n) => sum + n, 0)
    return { workflow, activities, activitySizes, size }
  })
  const releases = shownReleases.map((milestone) => ({
    milestone,
    size: releaseTotals.get(milestone.id)?.size ?? 0,
    count: releaseTotals.get(milestone.id)?.count ?? 0,
    closed: releaseTotals.get(milestone.id)?.closed ?? 0,
  }))
  return {
    goals,
    releases,
    cells,
    activitySize,
    hidden: {
      releases: milestones.length - releases.length,
      goals: workflows.length - goals.length,
      activities: hiddenActivities,
    },
    closedLeftOut,
  }
}
