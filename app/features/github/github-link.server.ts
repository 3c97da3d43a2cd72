import { getDb } from '~/lib/db/db.server'
import type { githubLinks } from '~/lib/db/schema'
import { singleton } from '~/lib/singleton.server'
import { statement } from '~/lib/db/prepared.server'
import type { ProjectField } from '~/features/map/project-fields.server'

/**
 * A project's link to its repository as stored, and as every member may read it (CONTRACT §13):
 * never the token, never the webhook secret. The bundle's `project.github` comes from here.
 */
export type LinkRow = typeof githubLinks.$inferSelect
export type LinkStatus = Exclude<LinkRow['status'], 'project_missing' | 'token_expiring'>

export type PublicGithubLink = {
  repository: string
  linkedAt: string
  linkedBy: { memberId: string; name: string }
  status: LinkStatus
  lastSyncAt: string | null
  error: string | null
}

const COLUMNS = `project_id as projectId, workspace_id as workspaceId, repository, token_cipher as tokenCipher,
  webhook_secret_cipher as webhookSecretCipher, linked_at as linkedAt, linked_by as linkedBy, linked_by_name as linkedByName,
  status, error, last_sync_at as lastSyncAt, etag, since, retry_at as retryAt`

export function findLink(projectId: string): LinkRow | undefined {
  // Read by every board load and bundle read (githubOfProject): prepared once.
  return statement(`select ${COLUMNS} from github_links where project_id = ? and provider = 'github'`).get(
    projectId,
  ) as LinkRow | undefined
}

export function allLinks(): LinkRow[] {
  return getDb()
    .$client.prepare(`select ${COLUMNS} from github_links where provider = 'github'`)
    .all() as LinkRow[]
}

/**
 * When a poll that found nothing changed last answered, per project: kept in memory, so such a
 * poll writes nothing (CONTRACT §13: an unchanged repository costs nothing). After a restart the
 * stored time shows until the first poll.
 */
const quietSyncs = () => singleton('github-quiet-syncs', () => new Map<string, string>())

export function noteQuietSync(projectId: string, at: Date) {
  quietSyncs().set(projectId, at.toISOString())
}

/** A link made, changed or removed starts without a quiet poll. */
export function forgetQuietSync(projectId: string) {
  quietSyncs().delete(projectId)
}

function lastSyncOf(row: Pick<LinkRow, 'projectId' | 'lastSyncAt'>): string | null {
  const quiet = quietSyncs().get(row.projectId)
  if (!quiet) return row.lastSyncAt
  return row.lastSyncAt && row.lastSyncAt > quiet ? row.lastSyncAt : quiet
}

export function publicLink(row: LinkRow): PublicGithubLink {
  return {
    repository: row.repository,
    linkedAt: row.linkedAt,
    linkedBy: { memberId: row.linkedBy, name: row.linkedByName },
    status: row.status as LinkStatus,
    lastSyncAt: lastSyncOf(row),
    error: row.error,
  }
}

/** The project's `github` as the bundle shows it, or null. */
export function githubOfProject(projectId: string): PublicGithubLink | null {
  const row = findLink(projectId)
  return row ? publicLink(row) : null
}

/** Sets the link's status (and GitHub's message, and until when to wait on a rate limit). */
export function setLinkStatus(
  projectId: string,
  status: LinkRow['status'],
  error: string | null,
  retryAt: string | null = null,
) {
  getDb()
    .$client.prepare('update github_links set status = ?, error = ?, retry_at = ? where project_id = ?')
    .run(status, error, retryAt, projectId)
}

/** After a call GitHub answered: the link is fine again (a refused token stays refused until relinked). */
export function markReachable(projectId: string) {
  getDb()
    .$client.prepare(
      `update github_links set status = 'ok', error = null, retry_at = null
       where project_id = ? and status in ('rate_limited', 'unreachable', 'repository_missing')`,
    )
    .run(projectId)
}

export type LogEntry = {
  direction: 'push' | 'pull'
  featureId?: string | null
  issue?: number | null
  action: string
  status: 'ok' | 'retrying' | 'failed'
  error?: string | null
}

/** The log keeps this many operations per project; the API shows the last 50. */
const LOG_KEEP = 50

export function logSync(projectId: string, entry: LogEntry, at = new Date()) {
  const client = getDb().$client
  client
    .prepare(
      'insert into github_log (project_id, at, direction, feature_id, issue, action, status, error) values (?, ?, ?, ?, ?, ?, ?, ?)',
    )
    .run(
      projectId,
      at.toISOString(),
      entry.direction,
      entry.featureId ?? null,
      entry.issue ?? null,
      entry.action,
      entry.status,
      entry.error ?? null,
    )
  client
    .prepare(
      `delete from github_log where project_id = ? and seq <= (
         select seq from github_log where project_id = ? order by seq desc limit 1 offset ?)`,
    )
    .run(projectId, projectId, LOG_KEEP)
}

export type PublicLogEntry = {
  at: string
  direction: 'push' | 'pull'
  featureId: string | null
  issue: number | null
  action: string
  status: 'ok' | 'retrying' | 'failed'
  error: string | null
}

export function listLog(projectId: string): PublicLogEntry[] {
  return getDb()
    .$client.prepare(
      `select at, direction, feature_id as featureId, issue, action, status, error from github_log
       where project_id = ? order by seq desc limit ?`,
    )
    .all(projectId, LOG_KEEP) as PublicLogEntry[]
}

/** The bundle's `project.github` for members (CONTRACT §13), registered with the map at start. */
export const githubProjectField: ProjectField = { name: 'github', read: githubOfProject }
