import type Database from 'better-sqlite3'
import { getDb } from '~/lib/db/db.server'
import { prepared } from '~/lib/db/prepared.server'
import { DomainError } from '~/lib/errors'
import { can, type Level } from '~/features/map/permissions'
import { isPlanActive, planTurnsAt, type PlanLevel } from '~/features/map/plan'
import type { StreamAccess, StreamCheck } from './live-hub.server'
import { findSharedProjectRow } from '~/features/map/project-bundle.server'

/**
 * Who may keep a live stream open (CONTRACT §6), asked when it opens and every few seconds
 * after: a member stream needs a live session whose account is still a member of the project's
 * workspace (any level, any plan) while the project exists; a link stream needs its project
 * still shared. Member streams also learn what their member may do now (`access`), so an open
 * board follows a level change or the plan ending without a reload.
 */

type AccessRow = { level: Level; planLevel: PlanLevel; externalStatus: string; expirationDate: string | null }

function accessOf(row: AccessRow, now: Date, readOnlyToken = false): StreamAccess {
  const planActive = isPlanActive(
    { level: row.planLevel, externalStatus: row.externalStatus, expirationDate: row.expirationDate },
    now,
  )
  return { level: row.level, canEdit: !readOnlyToken && can({ level: row.level, planActive }, 'edit') }
}

/** The first of these times (ISO texts or epoch ms) still to come, for `StreamCheck.until`. */
function firstOf(now: Date, ...times: (string | number | null)[]): number | undefined {
  const future = times
    .map((t) => (typeof t === 'string' ? Date.parse(t) : t))
    .filter((t): t is number => t !== null && Number.isFinite(t) && t > now.getTime())
  return future.length > 0 ? Math.min(...future) : undefined
}

const planTurns = (row: AccessRow, now: Date) =>
  planTurnsAt(
    { level: row.planLevel, externalStatus: row.externalStatus, expirationDate: row.expirationDate },
    now,
  )

const ACCESS_COLUMNS = `members.level as level, subscriptions.level as planLevel,
      subscriptions.external_status as externalStatus, subscriptions.expiration_date as expirationDate`
export function memberStreamAccess(sessionId: string, projectId: string, now = new Date()): StreamCheck {
  const query = prepared('member-stream-access', (db) =>
    db.$client.prepare(`
      select members.id as memberId, accounts.name as name, sessions.expires_at as sessionEnds, ${ACCESS_COLUMNS}
      from sessions
      join accounts on accounts.id = sessions.account_id
      join projects on projects.id = @projectId
      join members on members.workspace_id = projects.workspace_id and members.account_id = sessions.account_id
      join subscriptions on subscriptions.workspace_id = projects.workspace_id
      where sessions.id = @sessionId and sessions.expires_at > @now`),
  )
  const row = query.get({ projectId, sessionId, now: now.toISOString() }) as
    ({ memberId: string; name: string; sessionEnds: string } & AccessRow) | undefined
  if (!row) return { ok: false }
  return {
    ok: true,
    viewer: { memberId: row.memberId, name: row.name },
    access: accessOf(row, now),
    until: firstOf(now, row.sessionEnds, planTurns(row, now)),
  }
}

/** The same for a stream opened with an API token: the token unrevoked, unexpired, of the project's workspace. */
export function tokenStreamAccess(tokenId: string, projectId: string, now = new Date()): StreamCheck {
  const query = prepared('token-stream-access', (db) =>
    db.$client.prepare(`
      select members.id as memberId, accounts.name as name, api_tokens.scope as scope,
        api_tokens.expires_at as tokenEnds, ${ACCESS_COLUMNS}
      from api_tokens
      join members on members.id = api_tokens.member_id
      join accounts on accounts.id = members.account_id
      join projects on projects.id = @projectId and projects.workspace_id = api_tokens.workspace_id
      join subscriptions on subscriptions.workspace_id = projects.workspace_id
      where api_tokens.id = @tokenId and (api_tokens.expires_at is null or api_tokens.expires_at > @now)`),
  )
  const row = query.get({ projectId, tokenId, now: now.toISOString() }) as
    | ({ memberId: string; name: string; scope: 'read' | 'write'; tokenEnds: string | null } & AccessRow)
    | undefined
  if (!row) return { ok: false }
  return {
    ok: true,
    viewer: { memberId: row.memberId, name: row.name },
    access: accessOf(row, now, row.scope === 'read'),
    until: firstOf(now, row.tokenEnds, planTurns(row, now)),
  }
}

/** The project a share link shows while sharing is on, or null. */
export function sharedProjectId(externalLink: string, now = new Date()): string | null {
  try {
    return findSharedProjectRow(externalLink, now).id
  } catch (error) {
    if (error instanceof DomainError) return null
    throw error
  }
}

export function linkStreamAccess(externalLink: string, projectId: string, now = new Date()): StreamCheck {
  return sharedProjectId(externalLink, now) === projectId ? { ok: true, viewer: null } : { ok: false }
}

/**
 * The tables whose rows decide who may keep a stream open, and how (a write to another column
 * or table never changes an answer above). A temporary trigger on each counts the writes, so a
 * sweep with nothing counted checks only the streams whose answer may have changed with time
 * (`StreamCheck.until`): the capacity bench's 3,200 open streams cost 1,600 queries a second.
 */
const ACCESS_WRITES = [
  'after delete on main.sessions',
  // A session renewed (a later expiry) changes no answer.
  'after update of expires_at, account_id on main.sessions when new.expires_at < old.expires_at or new.account_id is not old.account_id',
  'after update of name on main.accounts',
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
