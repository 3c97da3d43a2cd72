import type { BoardCommand } from './board-commands'
import { byRank, cellKey, type BoardGrid } from './board-grid'
import type { ProjectBundle } from '../map/bundle-types'
import { moveIndexFromVisible, placeBetween } from '../map/rank'

/**
 * What a drag on the board means, in words and in commands. Pure: the board's drag hook
 * (ui/use-board-drag.ts) gives it the drag library's places.
 *
 * The drop targets ("droppables") are named by id: `goals`, `releases`, `activities:{goalId}` and
 * `cell:{releaseId}:{activityId}`. A place is a droppable and an index among the cards it shows.
 */
export type DragPlace = { droppableId: string; index: number }
export type DragKind = 'GOAL' | 'RELEASE' | 'ACTIVITY' | 'FEATURE'

export const cellDroppableId = (milestoneId: string, activityId: string) =>
  `cell:${milestoneId}:${activityId}`

/** A folded release's line: a feature dropped there lands in the release, in its own activity. */
export const foldedDroppableId = (milestoneId: string) => `fold:${milestoneId}`

type Droppable =
  | { kind: 'goals' }
  | { kind: 'releases' }
  | { kind: 'activities'; goalId: string }
  | { kind: 'cell'; milestoneId: string; activityId: string }
  | { kind: 'folded'; milestoneId: string }

export function parseDroppableId(id: string): Droppable | null {
  if (id === 'goals' || id === 'releases') return { kind: id }
  if (id.startsWith('activities:')) return { kind: 'activities', goalId: id.slice('activities:'.length) }
  if (id.startsWith('fold:')) return { kind: 'folded', milestoneId: id.slice('fold:'.length) }
  const cell = /^cell:([^:]+):([^:]+)$/.exec(id)
  return cell ? { kind: 'cell', milestoneId: cell[1], activityId: cell[2] } : null
}

type Titles = Pick<ProjectBundle, 'milestones' | 'workflows' | 'subWorkflows' | 'features'>
const titleIn = (list: readonly { id: string; title: string }[], id: string) =>
  list.find((c) => c.id === id)?.title ?? ''

/** A cell's name as the board says it: `MVP / Search` (release / activity). */
export const cellName = (releaseTitle: string, activityTitle: string) => `${releaseTitle} / ${activityTitle}`

/** Where a droppable is, in words: `the goals`, `the releases`, `goal Shop`, `MVP / Search`. */
export function placeName(bundle: Titles, droppableId: string): string {
  const place = parseDroppableId(droppableId)
  if (!place) return 'the map'
  switch (place.kind) {
    case 'goals':
      return 'the goals'
    case 'releases':
      return 'the releases'
    case 'activities':
      return `goal ${titleIn(bundle.workflows, place.goalId)}`
    case 'folded':
      return `release ${titleIn(bundle.milestones, place.milestoneId)}`
    case 'cell':
      return cellName(
        titleIn(bundle.milestones, place.milestoneId),
        titleIn(bundle.subWorkflows, place.activityId),
      )
  }
}

/** The title of a dragged card of any kind. */
export function cardTitle(bundle: Titles, id: string): string {
  for (const list of [bundle.features, bundle.subWorkflows, bundle.milestones, bundle.workflows]) {
    const found = list.find((c) => c.id === id)
    if (found) return found.title
  }
  return ''
}

/** What a screen reader hears at each step of a drag (the drag library reads it out). */
export const dragWords = {
  /** Read out by the drag library for every drag handle (its `dragHandleUsageInstructions`). */
  instructions:
    'Space lifts the card. Arrow keys move it (a feature also on to the release above or below), Space drops it, Escape cancels.',
  lifted: (title: string, place: string, index: number) =>
    `Lifted '${title}' in ${place}, position ${index + 1}`,
  moved: (title: string, place: string, index: number) =>
    `Moved '${title}' to ${place}, position ${index + 1}`,
  outside: (title: string) => `'${title}' is not over a place it can go`,
  dropped: (title: string, place: string, index: number) =>
    `Dropped '${title}' in ${place}, position ${index + 1}`,
  cancelled: (title: string, place: string, index: number) =>
    `Move cancelled: '${title}' is back in ${place}, position ${index + 1}`,
}

/**
 * The move a drop makes, or null when it goes nowhere. `destination.index` counts the cards the
 * list shows (features the search hides are in it; closed ones are not unless shown); the command
 * names the cards on either side of the drop and the index among all cards (rank.ts), so it lands
 * beside the card it was dropped by even when the server's list changed meanwhile.
 */
export function dropCommand(
  bundle: ProjectBundle,
  grid: BoardGrid,
  drag: { id: string; type: string; destination: DragPlace },
  closed: { showClosed: boolean; includeClosed: boolean },
): BoardCommand | null {
  const { id, type, destination } = drag
  const placeIn = <T extends { id: string; status: string }>(list: T[], closedShown: boolean) => {
    const siblings = list.filter((c) => c.id !== id)
    const index = moveIndexFromVisible(
      siblings,
      destination.index,
      (c) => closedShown || c.status !== 'CLOSED',
    )
    return placeBetween(siblings, index)
  }
  const target = parseDroppableId(destination.droppableId)
  if (type === 'GOAL' && target?.kind === 'goals')
    return { type: 'workflow.move', id, ...placeIn([...bundle.workflows].sort(byRank), closed.showClosed) }
  if (type === 'RELEASE' && target?.kind === 'releases')
    return { type: 'milestone.move', id, ...placeIn([...bundle.milestones].sort(byRank), closed.showClosed) }
  if (type === 'ACTIVITY' && target?.kind === 'activities') {
    const siblings = bundle.subWorkflows.filter((s) => s.workflowId === target.goalId).sort(byRank)
    return {
      type: 'subworkflow.move',
      id,
      toWorkflowId: target.goalId,
      ...placeIn(siblings, closed.showClosed),
    }
  }
  if (type === 'FEATURE' && target?.kind === 'cell') {
    const siblings = grid.cells.get(cellKey(target.milestoneId, target.activityId)) ?? []
    return {
      type: 'feature.move',
      id,
      toMilestoneId: target.milestoneId,
      toSubWorkflowId: target.activityId,
      ...placeIn(siblings, closed.includeClosed),
    }
  }
  if (type === 'FEATURE' && target?.kind === 'folded') {
    const activityId = bundle.features.find((f) => f.id === id)?.subWorkflowId
    if (!activityId) return null
    const siblings = (grid.cells.get(cellKey(target.milestoneId, activityId)) ?? []).filter(
      (f) => f.id !== id,
    )
    return {
      type: 'feature.move',
      id,
      toMilestoneId: target.milestoneId,
      toSubWorkflowId: activityId,
      ...placeBetween(siblings, siblings.length),
    }
  }
  return null
}

export type FeatureMove = Extract<BoardCommand, { type: 'feature.move' }>

/**
 * A keyboard drag of a feature past the top or bottom card of its cell goes on to the same
 * activity's cell in the release above or below (the README's keyboard table): the feature, as
 * the move that puts it there (last in the cell above, first in the cell below), and its index
 * there among the shown cards. Null when there is no such cell or the card is not at that edge.
 */
export function moveAcrossReleases(
  grid: BoardGrid,
  drag: { id: string; over: DragPlace },
  direction: 'up' | 'down',
  includeClosed: boolean,
  foldedReleases?: ReadonlySet<string>,
): { move: FeatureMove; to: DragPlace } | null {
  const cell = parseDroppableId(drag.over.droppableId)
  if (cell?.kind !== 'cell') return null
  const shown = (list: { id: string; status: string }[]) =>
    list.filter((f) => f.id !== drag.id && (includeClosed || f.status !== 'CLOSED'))
  const here = shown(grid.cells.get(cellKey(cell.milestoneId, cell.activityId)) ?? [])
  if (direction === 'down' ? drag.over.index < here.length : drag.over.index > 0) return null
  const row = grid.releases.findIndex((r) => r.milestone.id === cell.milestoneId)
  const step = direction === 'down' ? 1 : -1
  // Folded releases show no cells: the card goes on to the next open one.
  let next: BoardGrid['releases'][number] | undefined
  for (let r = row + step; row !== -1 && r >= 0 && r < grid.releases.length && !next; r += step)
    if (!foldedReleases?.has(grid.releases[r].milestone.id)) next = grid.releases[r]
  if (!next) return null
  const milestoneId = next.milestone.id
  const all = (grid.cells.get(cellKey(milestoneId, cell.activityId)) ?? []).filter((f) => f.id !== drag.id)
  const first = direction === 'down'
  return {
    move: {
      type: 'feature.move',
      id: drag.id,
      toMilestoneId: milestoneId,
      toSubWorkflowId: cell.activityId,
      ...placeBetween(all, first ? 0 : all.length),
    },
    to: { droppableId: cellDroppableId(milestoneId, cell.activityId), index: first ? 0 : shown(all).length },
  }
}
