import type Database from 'better-sqlite3'
import { getDb } from './db.server'
import { singleton } from '../singleton.server'

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

type Watch = { writes: number; dataVersion: Database.Statement }
// One count per connection for both bundles (singleton.server.ts): the triggers call the one
// function registered last, whichever bundle registered it.
const watches = singleton('access-write-watches', () => new WeakMap<Database.Database, Watch>())

function watchAccessWrites(client: Database.Database): Watch {
  let watch = watches.get(client)
  if (watch) return watch
  const created: Watch = { writes: 0, dataVersion: client.prepare('pragma data_version').pluck() }
  // A count in JavaScript, not a table: reading it costs nothing on every request. A write that
  // is then rolled back still counts: kept rows are read again once, never kept too long.
  client.function('storymap_access_write', { deterministic: false, directOnly: true }, () => {
    created.writes++
    return null
  })
  ACCESS_WRITES.forEach((when, i) =>
    client.exec(`create temp trigger if not exists access_write_${i} ${when}
      begin select storymap_access_write(); end;`),
  )
  watches.set(client, (watch = created))
  return watch
}

/**
 * A mark that changes whenever an access answer may have changed by a write: one counted on this
 * connection (the triggers above), or any commit by another connection (SQLite's
 * `data_version`: a page thread renewing a session, another process).
 */
export function accessWritesMark(): string {
  const watch = watchAccessWrites(getDb().$client)
  return `${watch.writes}:${watch.dataVersion.get() as number}`
}
