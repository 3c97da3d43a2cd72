import type Database from 'better-sqlite3'
import { ENTITY_SPECS, jsonObjectSql, tableNameOf } from '~/features/board/entity-json.server'

/**
 * Change capture for the change log (ADR 10). Temporary triggers on this connection copy every
 * story-map row a write inserts, updates or deletes into `temp.change_capture`, rendered as the
 * API shows it, while a logged write runs (cascaded deletes included: SQLite fires triggers
 * for foreign-key actions). The write path then folds the rows into one change. Nothing is
 * captured outside a logged write, so deleting a whole workspace costs nothing extra.
 */
// Whether a logged write is running is a row in a temporary table, so the triggers ask SQLite
// (a call into JavaScript per row cost 40% of a 20,000-card import) and a rollback resets it.
const switches = new WeakMap<Database.Database, { on: Database.Statement; off: Database.Statement }>()

export function setCapturing(client: Database.Database, on: boolean) {
  let statements = switches.get(client)
  if (!statements) {
    statements = {
      on: client.prepare('insert or ignore into temp.change_capture_on (id) values (1)'),
      off: client.prepare('delete from temp.change_capture_on'),
    }
    switches.set(client, statements)
  }
  ;(on ? statements.on : statements.off).run()
}

export function installChangeCapture(client: Database.Database) {
  client.exec('create temp table if not exists change_capture_on (id integer primary key)')
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
        when exists (select 1 from temp.change_capture_on) begin ${insert('new.id', projectOf('new'), 'null', newJson)} end;
      create temp trigger if not exists capture_${table}_update after update on main."${table}"
        when exists (select 1 from temp.change_capture_on) begin ${insert('new.id', projectOf('new'), oldJson, newJson)} end;
      create temp trigger if not exists capture_${table}_delete after delete on main."${table}"
        when exists (select 1 from temp.change_capture_on) begin ${insert('old.id', projectOf('old'), oldJson, 'null')} end;
    `)
  }
}

export type CapturedRow = { kind: string; id: string; projectId: string; old: string | null; new: string | null }

const drains = new WeakMap<Database.Database, { read: Database.Statement; clear: Database.Statement }>()

/** The rows captured so far in this transaction, oldest first; the capture table is emptied. */
export function drainCapture(client: Database.Database): CapturedRow[] {
  let statements = drains.get(client)
  if (!statements) {
    statements = {
      read: client.prepare('select kind, id, project_id as projectId, old, new from temp.change_capture order by seq'),
      clear: client.prepare('delete from temp.change_capture'),
    }
    drains.set(client, statements)
  }
  const rows = statements.read.all() as CapturedRow[]
  if (rows.length > 0) statements.clear.run()
  return rows
}
