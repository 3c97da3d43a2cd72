import { prepared } from '~/lib/db/prepared.server'
import { trashRoots, type NameOf, type SummaryEntry } from '../map/activity-sentence'
import type { ChangeContext } from '~/features/map/change-events'

const NAME_SQL = {
  milestone: 'select title from milestones where id = ?',
  workflow: 'select title from workflows where id = ?',
  subWorkflow: 'select title from subworkflows where id = ?',
  feature: 'select title from features where id = ?',
  persona: 'select name from personas where id = ?',
  tag: 'select name from tags where id = ?',
} as const

/** A card's title or a persona's name as it is now (inside the write's transaction), for activity sentences. */
export const nameOf: NameOf = (kind, id) =>
  (prepared(`name-of-${kind}`, (db) => db.$client.prepare(NAME_SQL[kind]).pluck()).get(id) as string | undefined) ??
  null

/**
 * Keeps the trash in step with a change (ADR 12): each card it deleted whose parent it did not
 * also delete becomes an entry (when the change is one that trashes), and whatever it brought
 * back (undo, redo, restore) leaves the trash.
 */
export function updateTrash(ctx: ChangeContext, projectId: string, version: number, entries: SummaryEntry[], trashes: boolean) {
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
