import { prepared } from '~/db/prepared.server'
import { DomainError } from '~/domain/errors'
import type { StreamCheck } from '~/utils/live-hub.server'
import { findSharedProjectRow } from './project-bundle.server'

/**
 * Who may keep a live stream open (CONTRACT §6), asked when it opens and every few seconds
 * after: a member stream needs a live session whose account is still a member of the project's
 * workspace (any level, any plan) while the project exists; a link stream needs its project
 * still shared.
 */
export function memberStreamAccess(sessionId: string, projectId: string, now = new Date()): StreamCheck {
  const query = prepared('member-stream-access', (db) =>
    db.$client.prepare(`
      select members.id as memberId, accounts.name as name
      from sessions
      join accounts on accounts.id = sessions.account_id
      join projects on projects.id = @projectId
      join members on members.workspace_id = projects.workspace_id and members.account_id = sessions.account_id
      where sessions.id = @sessionId and sessions.expires_at > @now`),
  )
  const row = query.get({ projectId, sessionId, now: now.toISOString() }) as
    | { memberId: string; name: string }
    | undefined
  return row ? { ok: true, viewer: { memberId: row.memberId, name: row.name } } : { ok: false }
}

/** The same for a stream opened with an API token: the token unrevoked, unexpired, of the project's workspace. */
export function tokenStreamAccess(tokenId: string, projectId: string, now = new Date()): StreamCheck {
  const query = prepared('token-stream-access', (db) =>
    db.$client.prepare(`
      select members.id as memberId, accounts.name as name, api_tokens.name as via
      from api_tokens
      join members on members.id = api_tokens.member_id
      join accounts on accounts.id = members.account_id
      join projects on projects.id = @projectId and projects.workspace_id = api_tokens.workspace_id
      where api_tokens.id = @tokenId and (api_tokens.expires_at is null or api_tokens.expires_at > @now)`),
  )
  const row = query.get({ projectId, tokenId, now: now.toISOString() }) as
    | { memberId: string; name: string; via: string }
    | undefined
  return row ? { ok: true, viewer: { memberId: row.memberId, name: row.name } } : { ok: false }
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
