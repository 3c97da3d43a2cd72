import type Database from 'better-sqlite3'
import { getDb } from './db.server'
import { prepared } from './prepared.server'

/**
 * The tables whose rows decide who may do what: sessions, accounts, memberships, plans, projects'
 * sharing, workspaces and API tokens (a write to another column or table never changes who may).
 * A temporary trigger on each counts the writes, so that what was read from them can be kept
 * until one may have changed it: the live streams' periodic checks (CONTRACT §6) and each
 * request's session and membership (access-cache.server.ts).
 */
const ACCESS_WRITES = [
  'after delete on main.sessions',
  // A session renewed (a later expiry) changes no answer.
  'after update of expires_at, account_id on main.sessions when new.expires_at < old.expires_at or new.account_id is not old.account_id',
  'after update on main.accounts',
  'after delete on main.accounts',
  'after insert on main.members',
  'after update on main.members',
  'after delete on main.members',
  'after insert on main.subscriptions',
  'after update on main.subscriptions',
  'after delete on main.subscriptions',
  'after update of workspace_id, external_link, sharing_enabled on main.projects',
  'after delete on main.projects',
  'after update on main.workspaces',
  'after delete on main.workspaces',
  'after update on main.api_tokens',
  'after delete on main.api_tokens',
]

const watched = new WeakSet<Database.Database>()

function watchAccessWrites(client: Database.Database) {
  if (watched.has(client)) return
  client.exec('create temp table if not exists access_writes (id integer primary key, n integer not null)')
  client.exec('insert or ignore into temp.access_writes (id, n) values (1, 0)')
  ACCESS_WRITES.forEach((when, i) =>
    client.exec(`create temp trigger if not exists access_write_${i} ${when}
      begin update temp.access_writes set n = n + 1 where id = 1; end;`),
  )
  watched.add(client)
}

/**
 * A mark that changes whenever an access answer may have changed by a write: one counted on this
 * connection (the triggers above; a rolled-back write counts nothing), or any commit by another
 * connection (SQLite's `data_version`: a page thread renewing a session, another process).
 */
export function accessWritesMark(): string {
  const client = getDb().$client
  watchAccessWrites(client)
  const read = prepared('access-writes-mark', (db) =>
    db.$client.prepare(
      'select (select n from temp.access_writes where id = 1) as n, (select data_version from pragma_data_version) as outside',
    ),
  )
  const { n, outside } = read.get() as { n: number; outside: number }
  return `${n}:${outside}`
}
