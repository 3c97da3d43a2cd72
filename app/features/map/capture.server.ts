import type Database from 'better-sqlite3'
import { ENTITY_SPECS, jsonObjectSql, tableNameOf } from '~/features/map/entity-json.server'
import { isPageWorker } from '~/lib/page-worker-role.server'

/**
 * The map tables' side of the one door (ADR 10, ADR 25). Temporary triggers on this connection:
 * - a guard that refuses any insert, update or delete on a map table while the door is shut, so
 *   nothing but executeChange (app/features/map/door.server.ts) can change a map;
 * - while the door captures, a copy of every row a write inserts, updates or deletes into
 *   `temp.change_capture`, rendered as the API shows it (cascaded deletes included: SQLite fires
 *   triggers for foreign-key actions). The door folds them into one change.
 * The door's state is a row in a temporary table, so the triggers ask SQLite (a call into
 * JavaScript per row cost 40% of a 20,000-card import) and a rollback resets it.
 */
type Switches = {
  open: Database.Statement
  capture: Database.Statement
  shut: Database.Statement
  stopCapture: Database.Statement
}
const switches = new WeakMap<Database.Database, Switches>()

function switchesOf(client: Database.Database): Switches {
  let statements = switches.get(client)
  if (!statements) {
    // Installed at start (server/index.ts); a connection opened by other means gets it at its first change.
    installMapDoor(client)
    statements = {
      open: client.prepare('insert or ignore into temp.map_door_open (id) values (1)'),
      capture: client.prepare('insert or ignore into temp.change_capture_on (id) values (1)'),
      shut: client.prepare('delete from temp.map_door_open'),
      stopCapture: client.prepare('delete from temp.change_capture_on'),
    }
    switches.set(client, statements)
  }
  return statements
}

/** Opens the door for one write; `capture` says whether what it touches is recorded. */
export function openDoor(client: Database.Database, capture: boolean) {
  if (isPageWorker()) throw new Error(IN_THE_PAGE_WORKER)
  const s = switchesOf(client)
  s.open.run()
  ;(capture ? s.capture : s.stopCapture).run()
}

/** Inside an open door: turns the recording of touched rows on or off. */
export function setCapturing(client: Database.Database, on: boolean) {
  const s = switchesOf(client)
  ;(on ? s.capture : s.stopCapture).run()
}

export function shutDoor(client: Database.Database) {
  const s = switchesOf(client)
  s.stopCapture.run()
  s.shut.run()
}

/** Why the door stays shut in the page worker: its live streams are on the main thread (server/page-worker.ts). */
export const IN_THE_PAGE_WORKER = 'a map is changed only on the main thread, where its open boards are'

/** What SQLite answers a write on a map table made outside the door. */
export const OUTSIDE_THE_DOOR = 'map tables are changed only through executeChange'

export function installMapDoor(client: Database.Database) {
  client.exec('create temp table if not exists map_door_open (id integer primary key)')
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
    const guard = (event: string) =>
      `create temp trigger if not exists guard_${table}_${event} before ${event} on main."${table}"
        when not exists (select 1 from temp.map_door_open) begin select raise(ABORT, '${OUTSIDE_THE_DOOR}'); end;`
    client.exec(`
      ${guard('insert')}
      ${guard('update')}
      ${guard('delete')}
      create temp trigger if not exists capture_${table}_insert after insert on main."${table}"
        when exists (select 1 from temp.change_capture_on) begin ${insert('new.id', projectOf('new'), 'null', newJson)} end;
      create temp trigger if not exists capture_${table}_update after update on main."${table}"
        when exists (select 1 from temp.change_capture_on) begin ${insert('new.id', projectOf('new'), oldJson, newJson)} end;
      create temp trigger if not exists capture_${table}_delete after delete on main."${table}"
        when exists (select 1 from temp.change_capture_on) begin ${insert('old.id', projectOf('old'), oldJson, 'null')} end;
    `)
  }
}

export type CapturedRow = {
  kind: string
  id: string
  projectId: string
  old: string | null
  new: string | null
}

const drains = new WeakMap<Database.Database, { read: Database.Statement; clear: Database.Statement }>()

/** The rows captured so far in this transaction, oldest first; the capture table is emptied. */
export function drainCapture(client: Database.Database): CapturedRow[] {
  let statements = drains.get(client)
  if (!statements) {
    statements = {
      read: client.prepare(
        'select kind, id, project_id as projectId, old, new from temp.change_capture order by seq',
      ),
      clear: client.prepare('delete from temp.change_capture'),
    }
    drains.set(client, statements)
  }
  const rows = statements.read.all() as CapturedRow[]
  if (rows.length > 0) statements.clear.run()
  return rows
}
