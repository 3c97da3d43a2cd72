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
