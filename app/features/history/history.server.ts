import { getDb } from '~/lib/db/db.server'
import { prepared } from '~/lib/db/prepared.server'
import { authorJson } from '~/features/map/change-events'
import { NOUN, type Entity, type SummaryEntry } from '../map/activity-sentence'
import { refuse } from '~/lib/errors'
import { findProject } from '~/features/map/entities.server'
import { authorize, executeChange } from '~/features/map/door.server'
import { projectVersion } from '~/features/map/change-log.server'
import { applyStates, StateConflict, type StateTransition } from './entity-states.server'
import type { WorkspaceContext } from '~/features/workspaces/index.server'

/**
 * The activity feed and each member's undo and redo on a project (CONTRACT §7, ADR 12), all
 * read from the change log. An undo or redo puts the entities a change touched back into the
 * state before (or after) it, as a change of its own.
 */

type ChangeRow = {
  version: number
  memberId: string
  summary: string
  event: string
  prior: string
  undoOf: number | null
  redoOf: number | null
  undoneBy: number | null
  redoneBy: number | null
  purged: number
  undoSkipped: number
}
const COLUMNS = `version, member_id as memberId, summary, event, prior, undo_of as undoOf, redo_of as redoOf,
  undone_by as undoneBy, redone_by as redoneBy, purged, undo_skipped as undoSkipped`
/** The caller's undo stack, newest first: their changes not undone yet, apart from skipped ones. */
const UNDO_STACK = `from project_changes
  where project_id = ? and member_id = ? and undo_of is null and undone_by is null and undo_skipped = 0
  order by version desc limit 1`

/** Drops a step whose undo (or, for an undo row, redo) was refused: the next press reaches the one before. */
function skipStep(projectId: string, version: number) {
  getDb()
    .$client.prepare('update project_changes set undo_skipped = 1 where project_id = ? and version = ?')
    .run(projectId, version)
}

/** Every entity a change touched, with its state before and after it. */
export function entriesOf(row: Pick<ChangeRow, 'event' | 'prior'>): SummaryEntry[] {
  const prior = JSON.parse(row.prior) as { kind: string; id: string; before: Entity | null }[]
  const changes = (
    JSON.parse(row.event) as { changes: ({ kind: string; entity?: Entity; id?: string } & { op: string })[] }
  ).changes
  const after = new Map(
    changes.map((c) => [`${c.kind}:${c.op === 'upsert' ? c.entity!.id : c.id}`, c.entity ?? null]),
  )
  return prior.map((p) => ({
    kind: p.kind,
    id: p.id,
    before: p.before,
    after: withShareKey(p.before, after.get(`${p.kind}:${p.id}`) ?? null),
  }))
}

/** Events leave a project's share key out (CONTRACT §6); a change that reached them did not touch it. */
function withShareKey(before: Entity | null, after: Entity | null): Entity | null {
  if (!before || !after || after.kind !== 'project' || 'externalLink' in after) return after
  return { ...after, externalLink: before.externalLink }
}

export function changeRow(projectId: string, version: number): ChangeRow | undefined {
  return prepared('change-row', (db) =>
    db.$client.prepare(`select ${COLUMNS} from project_changes where project_id = ? and version = ?`),
  ).get(projectId, version) as ChangeRow | undefined
}

export function describeEntity(t: { kind: string; from: Entity | null; to: Entity | null }): string {
  const state = t.from ?? t.to
  const name = state?.title ?? state?.name
  return name === undefined ? `The ${NOUN[t.kind] ?? 'card'}` : `The ${NOUN[t.kind]} '${String(name)}'`
}

/** The sentence a change is known by, without the 'Redid: ' a redo put before it. */
const baseSummary = (summary: string) => summary.replace(/^Redid: /, '')

/** Runs transitions as a logged change; a conflict is the 409 the contract names. */
function replay(
  ctx: WorkspaceContext,
  projectId: string,
  command: { type: string; version: number; requestId?: string },
  transitions: StateTransition[],
  options: {
    summary: string
    undoOf?: number
    redoOf?: number
    mark: (version: number) => void
    /** Called once when the step cannot be replayed (the refusal is answered once, then the step is dropped). */
    refused: () => void
  },
) {
  let appended: { version: number; summary: string } | null = null
  try {
    executeChange(ctx, {
      action: 'edit',
      command,
      write: () => applyStates(transitions, describeEntity),
      log: {
        summary: () => options.summary,
        undoOf: options.undoOf,
        redoOf: options.redoOf,
        trash: true,
        afterAppend: (change) => {
          if (change.projectId !== projectId) return
          appended = { version: change.version, summary: change.summary }
          options.mark(change.version)
        },
      },
    })
  } catch (error) {
    if (!(error instanceof StateConflict)) throw error
    options.refused()
    throw refuse.conflict('undo_conflict', `${error.message} Someone else has changed what this would undo.`)
  }
  if (!appended) {
    options.refused()
    throw refuse.conflict('undo_conflict', 'The map is already as this would leave it.')
  }
  return appended as { version: number; summary: string }
}

/**
 * The answer an undo or redo with this request id already got: a page's outbox sends a write
 * again when its answer was lost, and an undo done twice would undo two steps.
 */
function answeredBefore(projectId: string, memberId: string, requestId: string | undefined) {
  if (!requestId) return null
  return (
    (getDb()
      .$client.prepare(
        `select version, summary from project_changes where project_id = ? and member_id = ? and json_extract(command, '$.requestId') = ?
         order by version desc limit 1`,
      )
      .get(projectId, memberId, requestId) as { version: number; summary: string } | undefined) ?? null
  )
}

/** Undoes the caller's most recent change on the project that is not undone yet. */
export function undo(ctx: WorkspaceContext, projectId: string, requestId?: string) {
  authorize(ctx, 'edit')
  findProject(getDb(), projectId, ctx.workspace.id)
  const answered = answeredBefore(projectId, ctx.member.id, requestId)
  if (answered) return answered
  const target = getDb().$client.prepare(`select ${COLUMNS} ${UNDO_STACK}`).get(projectId, ctx.member.id) as
    ChangeRow | undefined
  if (!target) throw refuse.conflict('nothing_to_undo', 'There is nothing of yours to undo on this map.')
  if (target.purged) {
    skipStep(projectId, target.version)
    throw refuse.conflict('undo_conflict', 'What this would bring back was deleted for good.')
  }
  const transitions = entriesOf(target).map((e) => ({ kind: e.kind, id: e.id, from: e.after, to: e.before }))
  return replay(
    ctx,
    projectId,
    { type: 'history.undo', version: target.version, ...(requestId ? { requestId } : {}) },
    transitions,
    {
      summary: `Undid: ${baseSummary(target.summary)}`,
      undoOf: target.version,
      mark: (version) =>
        getDb()
          .$client.prepare('update project_changes set undone_by = ? where project_id = ? and version = ?')
          .run(version, projectId, target.version),
      refused: () => skipStep(projectId, target.version),
    },
  )
}

/** The undo that a redo would reverse: the caller's latest undo not redone, with no new change of theirs after it. */
type RedoStep = Pick<ChangeRow, 'version' | 'undoOf' | 'redoOf' | 'redoneBy' | 'undoSkipped'>

function redoTarget(projectId: string, memberId: string): ChangeRow | null {
  // Step by step and without the changes' JSON: every board edit's answer asks this (own-edits.ts),
  // and after an edit the first row already says there is nothing to redo.
  const steps = prepared('redo-steps', (db) =>
    db.$client
      .prepare(`select version, undo_of as undoOf, redo_of as redoOf, redone_by as redoneBy, undo_skipped as undoSkipped
      from project_changes where project_id = ? and member_id = ? order by version desc limit 500`),
  )
  let target: number | null = null
  for (const row of steps.iterate(projectId, memberId) as IterableIterator<RedoStep>) {
    if (row.undoOf === null && row.redoOf === null) break // a new change since
    if (row.undoOf !== null && row.redoneBy === null && !row.undoSkipped) {
      target = row.version
      break
    }
  }
  return target === null ? null : (changeRow(projectId, target) ?? null)
}

/** Re-applies the caller's most recently undone change, as long as they made no new change since. */
export function redo(ctx: WorkspaceContext, projectId: string, requestId?: string) {
  authorize(ctx, 'edit')
  findProject(getDb(), projectId, ctx.workspace.id)
  const answered = answeredBefore(projectId, ctx.member.id, requestId)
  if (answered) return answered
  const undoRow = redoTarget(projectId, ctx.member.id)
  const original = undoRow ? changeRow(projectId, undoRow.undoOf!) : undefined
  if (!undoRow || !original)
    throw refuse.conflict('nothing_to_redo', 'There is nothing of yours to redo on this map.')
  if (original.purged) {
    skipStep(projectId, undoRow.version)
    throw refuse.conflict('undo_conflict', 'What this would bring back was deleted for good.')
  }
  const transitions = entriesOf(original).map((e) => ({
    kind: e.kind,
    id: e.id,
    from: e.before,
    to: e.after,
  }))
  return replay(
    ctx,
    projectId,
    { type: 'history.redo', version: original.version, ...(requestId ? { requestId } : {}) },
    transitions,
    {
      summary: `Redid: ${baseSummary(original.summary)}`,
      redoOf: original.version,
      mark: (version) =>
        getDb()
          .$client.prepare('update project_changes set redone_by = ? where project_id = ? and version = ?')
          .run(version, projectId, undoRow.version),
      refused: () => skipStep(projectId, undoRow.version),
    },
  )
}

export type ActivityItem = {
  version: number
  at: string
  by: { memberId: string; name: string; via?: string }
  summary: string
}

/** The project's changes newest first, `limit` of them before version `before` (exclusive). */
export function listActivity(ctx: WorkspaceContext, projectId: string, before: number | null, limit: number) {
  findProject(getDb(), projectId, ctx.workspace.id)
  const rows = getDb()
    .$client.prepare(
      `select version, at, member_id as memberId, member_name as name, via, summary from project_changes
       where project_id = ? and version < ? order by version desc limit ?`,
    )
    .all(projectId, before ?? Number.MAX_SAFE_INTEGER, limit + 1) as {
    version: number
    at: string
    memberId: string
    name: string
    via: string | null
    summary: string
  }[]
  const items: ActivityItem[] = rows
    .slice(0, limit)
    .map((r) => ({ version: r.version, at: r.at, by: authorJson(r), summary: r.summary }))
  return { items, next: rows.length > limit ? items[items.length - 1].version : null }
}

/** What the caller's Undo and Redo would do now (the board's buttons and tooltips). */
/**
 * What a board page needs after its own edit instead of reloading its map (own-edits.ts): the
 * project's version to wait for on its live stream, and the member's undo state. Null when the
 * project is not of the caller's workspace (the path named another's): nothing of it is told.
 */
export function stateAfterEdit(
  ctx: WorkspaceContext,
  projectId: string,
): { version: number; history: { undo: string | null; redo: string | null } } | null {
  const ours = prepared('project-of-workspace', (db) =>
    db.$client.prepare('select 1 from projects where id = ? and workspace_id = ?').pluck(),
  )
  if (ours.get(projectId, ctx.workspace.id) === undefined) return null
  return { version: projectVersion(projectId), history: historyState(ctx, projectId) }
}

export function historyState(
  ctx: WorkspaceContext,
  projectId: string,
): { undo: string | null; redo: string | null } {
  const last = prepared('undo-summary', (db) =>
    db.$client.prepare(`select summary ${UNDO_STACK}`).pluck(),
  ).get(projectId, ctx.member.id) as string | undefined
  const undoRow = redoTarget(projectId, ctx.member.id)
  const redoSummary = undoRow ? (changeRow(projectId, undoRow.undoOf!)?.summary ?? null) : null
  return {
    undo: last === undefined ? null : baseSummary(last),
    redo: redoSummary === null ? null : baseSummary(redoSummary),
  }
}
