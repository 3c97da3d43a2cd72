import { getDb } from '~/lib/db/db.server'
import { NOUN, removedCount, type Entity } from '../map/activity-sentence'
import { refuse } from '~/lib/errors'
import { findProject } from '~/features/map/entities.server'
import { authorize, executeChange } from '~/features/map/door.server'
import { applyStates, currentEntity, StateConflict } from './entity-states.server'
import { changeRow, describeEntity, entriesOf } from './history.server'
import type { WorkspaceContext } from '~/features/workspaces/index.server'

/**
 * The trash (CONTRACT §7, ADR 12): deleted goals, activities, releases and features per
 * project, deleted projects per workspace, for 30 days. An entry points at the change that
 * deleted it; that change's recorded prior state is what a restore puts back.
 */
export const TRASH_DAYS = 30

type TrashRow = {
  id: string
  workspaceId: string
  projectId: string
  kind: string
  title: string
  cards: number
  version: number
  deletedAt: string
  deletedBy: string
  deletedByName: string
}
const COLUMNS = `id, workspace_id as workspaceId, project_id as projectId, kind, title, cards, version,
  deleted_at as deletedAt, deleted_by as deletedBy, deleted_by_name as deletedByName`

const publicEntry = (r: TrashRow) => ({
  id: r.id,
  kind: r.kind,
  title: r.title,
  deletedAt: r.deletedAt,
  deletedBy: { memberId: r.deletedBy, name: r.deletedByName },
  cards: r.cards,
})

/** A project's trashed cards, newest first (any member may look). */
export function listProjectTrash(ctx: WorkspaceContext, projectId: string) {
  findProject(getDb(), projectId, ctx.workspace.id)
  const rows = getDb()
    .$client.prepare(
      `select ${COLUMNS} from trash where project_id = ? and workspace_id = ? and kind <> 'project'
       order by deleted_at desc, version desc`,
    )
    .all(projectId, ctx.workspace.id) as TrashRow[]
  return { items: rows.map(publicEntry) }
}

/** The workspace's trashed projects, newest first. */
export function listWorkspaceTrash(ctx: WorkspaceContext) {
  const rows = getDb()
    .$client.prepare(
      `select ${COLUMNS} from trash where workspace_id = ? and kind = 'project' order by deleted_at desc`,
    )
    .all(ctx.workspace.id) as TrashRow[]
  return { items: rows.map(publicEntry) }
}

function findEntry(ctx: WorkspaceContext, id: string): TrashRow {
  const row = getDb()
    .$client.prepare(`select ${COLUMNS} from trash where id = ? and workspace_id = ?`)
    .get(id, ctx.workspace.id) as TrashRow | undefined
  if (!row) throw refuse.notFound('Nothing with this id is in the trash.', 'trash_not_found')
  return row
}

const PARENT_TABLE: Record<string, [string, string][]> = {
  milestone: [['projectId', 'projects']],
  workflow: [['projectId', 'projects']],
  subWorkflow: [['workflowId', 'workflows']],
  feature: [
    ['milestoneId', 'milestones'],
    ['subWorkflowId', 'subworkflows'],
  ],
  project: [],
}

/** Puts an entry back where it was (same parent, same position) and answers the restored entity. */
export function restoreFromTrash(ctx: WorkspaceContext, id: string, now = new Date()): Entity {
  authorize(ctx, 'edit')
  const entry = findEntry(ctx, id)
  const change = changeRow(entry.projectId, entry.version)
  const removed = change ? entriesOf(change).filter((e) => e.after === null && e.before !== null) : []
  const root = removed.find((e) => e.id === entry.id)
  if (!change || change.purged || !root)
    throw refuse.notFound('Nothing with this id is in the trash.', 'trash_not_found')
  const client = getDb().$client
  for (const [field, table] of PARENT_TABLE[entry.kind] ?? []) {
    if (!client.prepare(`select 1 from "${table}" where id = ?`).get(root.before![field]))
      throw refuse.conflict(
        'parent_missing',
        `What this ${NOUN[entry.kind]} belongs to is gone or in the trash; restore that first.`,
      )
  }
  // The root and everything under it that the same delete removed (a change deletes one root).
  const transitions = removed.map((e) => ({ kind: e.kind, id: e.id, from: null, to: e.before }))
  const summary = `Restored ${NOUN[entry.kind]} '${entry.title}'${removedCount(removed, entry.id)}`
  try {
    executeChange(ctx, {
      action: 'edit',
      command: { type: 'trash.restore', id: entry.id, kind: entry.kind },
      write: () => applyStates(transitions, describeEntity),
      log: { summary: () => summary },
      at: now,
    })
  } catch (error) {
    if (error instanceof StateConflict)
      throw refuse.conflict(
        error.reason === 'parent_missing' ? 'parent_missing' : 'restore_conflict',
        error.message,
      )
    throw error
  }
  return currentEntity(entry.kind, entry.id) ?? root.before!
}

function forget(row: Pick<TrashRow, 'id' | 'projectId' | 'version' | 'kind'>) {
  const client = getDb().$client
  client.prepare('delete from trash where id = ?').run(row.id)
  if (row.kind === 'project')
    client.prepare('delete from project_changes where project_id = ?').run(row.projectId)
  else
    client
      .prepare("update project_changes set purged = 1, prior = '[]' where project_id = ? and version = ?")
      .run(row.projectId, row.version)
}

/** Deletes an entry for good: it can no longer be restored, nor its delete undone. */
export function purgeFromTrash(ctx: WorkspaceContext, id: string) {
  authorize(ctx, 'edit')
  const entry = findEntry(ctx, id)
  // A deleted project's log goes with it; a card's purge is a line in its map's Activity.
  const notice =
    entry.kind === 'project'
      ? undefined
      : {
          projectId: entry.projectId,
          kind: entry.kind,
          summary: `Deleted ${NOUN[entry.kind]} '${entry.title}' for good`,
        }
  executeChange(ctx, {
    action: 'edit',
    command: { type: 'trash.purge', id: entry.id, kind: entry.kind },
    write: () => forget(entry),
    log: { notice },
  })
  return {}
}

/** The server's own purge of entries older than 30 days (on start and daily). Returns how many went. */
export function purgeExpiredTrash(now = new Date()): number {
  const cutoff = new Date(now.getTime() - TRASH_DAYS * 24 * 60 * 60 * 1000).toISOString()
  const db = getDb()
  const expired = db.$client
    .prepare('select id, project_id as projectId, version, kind from trash where deleted_at < ?')
    .all(cutoff) as Pick<TrashRow, 'id' | 'projectId' | 'version' | 'kind'>[]
  db.transaction(() => expired.forEach(forget))
  return expired.length
}
