import type Database from 'better-sqlite3'
import { singleton } from '~/utils/singleton.server'
import { ENTITY_SPECS, jsonObjectSql, tableNameOf } from './entity-json.server'

/**
 * Change capture for the change log (ADR 10). Temporary triggers on this connection copy every
 * story-map row a write inserts, updates or deletes into `temp.change_capture`, rendered as the
 * API shows it, while a logged write runs (cascaded deletes included: SQLite fires triggers
 * for foreign-key actions). The write path then folds the rows into one change. Nothing is
 * captured outside a logged write, so deleting a whole workspace costs nothing extra.
 */
// Process-wide, not module state: the server entry and the Remix build each bundle this module.
const state = () => singleton('change-capture', () => ({ on: false }))

export function setCapturing(on: boolean) {
  state().on = on
}

export function installChangeCapture(client: Database.Database) {
  const capture = state()
  client.function('storymap_capturing', { deterministic: false }, () => (capture.on ? 1 : 0))
  client.exec(`create temp table if not exists change_capture (
    seq integer primary key,
    kind text not null,
    id text not null,
    project_id text not null,
    old text,
    new text
  )`)
  for (const spec of ENTITY_SPECS) {
    const table = tableNameOf(spec)
    const projectOf = (row: string) => (spec.changeKind === 'project' ? `${row}.id` : `${row}.project_id`)
    const insert = (id: string, projectId: string, before: string, after: string) =>
      `insert into temp.change_capture (kind, id, project_id, old, new) values ('${spec.changeKind}', ${id}, ${projectId}, ${before}, ${after});`
    const oldJson = jsonObjectSql(spec, 'old.')
    const newJson = jsonObjectSql(spec, 'new.')
    client.exec(`
      create temp trigger if not exists capture_${table}_insert after insert on main."${table}"
        when storymap_capturing() begin ${insert('new.id', projectOf('new'), 'null', newJson)} end;
      create temp trigger if not exists capture_${table}_update after update on main."${table}"
        when storymap_capturing() begin ${insert('new.id', projectOf('new'), oldJson, newJson)} end;
      create temp trigger if not exists capture_${table}_delete after delete on main."${table}"
        when storymap_capturing() begin ${insert('old.id', projectOf('old'), oldJson, 'null')} end;
    `)
  }
}

export type CapturedRow = { kind: string; id: string; projectId: string; old: string | null; new: string | null }

/** The rows captured so far in this transaction, oldest first; the capture table is emptied. */
export function drainCapture(client: Database.Database): CapturedRow[] {
  const rows = client
    .prepare('select kind, id, project_id as projectId, old, new from temp.change_capture order by seq')
    .all() as CapturedRow[]
  if (rows.length > 0) client.prepare('delete from temp.change_capture').run()
  return rows
}
