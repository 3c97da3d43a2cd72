import { prepared } from '~/lib/db/prepared.server'
import { trashRoots, type SummaryEntry } from '~/features/map/activity-sentence'
import type { ChangeContext } from '~/features/map/change-events'
import type { ChangeListener } from '~/features/map/listeners.server'

/**
 * Keeps the trash in step with a change (ADR 12): each card it deleted whose parent it did not
 * also delete becomes an entry (when the change is one that trashes), and whatever it brought
 * back (undo, redo, restore) leaves the trash.
 */
export function updateTrash(
  ctx: ChangeContext,
  projectId: string,
  version: number,
  entries: SummaryEntry[],
  trashes: boolean,
) {
  const remove = prepared('trash-remove', (db) => db.$client.prepare('delete from trash where id = ?'))
  for (const e of entries) if (e.before === null && e.after !== null) remove.run(e.id)
  if (!trashes) return
  const insert = prepared('trash-insert', (db) =>
    db.$client.prepare(
      `insert or replace into trash (id, workspace_id, project_id, kind, title, cards, version, deleted_at, deleted_by, deleted_by_name)
       values (@id, @workspaceId, @projectId, @kind, @title, @cards, @version, @at, @memberId, @name)`,
    ),
  )
  for (const { entry, cards } of trashRoots(entries)) {
    insert.run({
      id: entry.id,
      workspaceId: ctx.workspaceId,
      projectId,
      kind: entry.kind,
      title: String(entry.before!.title ?? ''),
      cards,
      version,
      at: ctx.at,
      memberId: ctx.memberId,
      name: ctx.name,
    })
  }
}

/** The trash follows every change: deletes that trash make entries, what comes back leaves (ADR 12). */
export const trashFollower: ChangeListener = {
  name: 'trash',
  inTransaction: (change, { by, command, log }) =>
    updateTrash(
      by,
      change.projectId,
      change.version,
      change.entries,
      !!log.trash || command.type === 'card.delete',
    ),
}
