import type { Feature, Milestone, ProjectBundle, SubWorkflow, Workflow } from './board-types'

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
export type ReleaseRow = { milestone: Milestone; size: number; count: number }

export type BoardGrid = {
  goals: GoalColumn[]
  releases: ReleaseRow[]
  /** Every feature of each release × activity cell, in rank order, closed ones included. */
  cells: Map<string, Feature[]>
  activitySize: Map<string, number>
  hidden: { releases: number; goals: number; activities: number }
}

const visible = (showClosed: boolean) => (card: { status: string }) => showClosed || card.status !== 'CLOSED'

/**
 * Derives the board's grid from a bundle. Closed cards are left out unless `showClosed`;
 * sizes sum the estimates of every feature under a card (SPEC §4). Given the `previous` grid,
 * every column, row and cell that has not changed is the previous object, so the board's
 * memoised parts skip them (a drop re-renders two cells, not two thousand).
 */
export function buildGrid(bundle: ProjectBundle, showClosed: boolean, previous?: BoardGrid): BoardGrid {
  const next = deriveGrid(bundle, showClosed)
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
      before.count === release.count
    return same ? before : release
  })
  return {
    ...next,
    cells,
    goals: sameItems(previous.goals, goals) ? previous.goals : goals,
    releases: sameItems(previous.releases, releases) ? previous.releases : releases,
  }
}

function deriveGrid(bundle: ProjectBundle, showClosed: boolean): BoardGrid {
  const show = visible(showClosed)
  const cells = new Map<string, Feature[]>()
  const activitySize = new Map<string, number>()
  const releaseTotals = new Map<string, { size: number; count: number }>()
  for (const feature of [...bundle.features].sort(byRank)) {
    const key = cellKey(feature.milestoneId, feature.subWorkflowId)
    const list = cells.get(key)
    if (list) list.push(feature)
    else cells.set(key, [feature])
    activitySize.set(feature.subWorkflowId, (activitySize.get(feature.subWorkflowId) ?? 0) + feature.estimate)
    const totals = releaseTotals.get(feature.milestoneId) ?? { size: 0, count: 0 }
    totals.size += feature.estimate
    totals.count += 1
    releaseTotals.set(feature.milestoneId, totals)
  }
  const activitiesByGoal = new Map<string, SubWorkflow[]>()
  for (const activity of [...bundle.subWorkflows].sort(byRank)) {
    const list = activitiesByGoal.get(activity.workflowId) ?? []
    list.push(activity)
    activitiesByGoal.set(activity.workflowId, list)
  }
  const workflows = [...bundle.workflows].sort(byRank)
  const milestones = [...bundle.milestones].sort(byRank)
  let hiddenActivities = 0
  const goals = workflows.filter(show).map((workflow) => {
    const all = activitiesByGoal.get(workflow.id) ?? []
    const activities = all.filter(show)
    hiddenActivities += all.length - activities.length
    const size = all.reduce((sum, a) => sum + (activitySize.get(a.id) ?? 0), 0)
    const activitySizes = activities.map((a) => activitySize.get(a.id) ?? 0)
    return { workflow, activities, activitySizes, size }
  })
  const releases = milestones.filter(show).map((milestone) => ({
    milestone,
    size: releaseTotals.get(milestone.id)?.size ?? 0,
    count: releaseTotals.get(milestone.id)?.count ?? 0,
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
  }
}
