import type Database from 'better-sqlite3'
import { getDb } from '~/lib/db/db.server'
import { getEnv } from '~/lib/env.server'
import { statement } from '~/lib/db/prepared.server'
import { singleton } from '~/lib/singleton.server'
import { openSecret, sealClearSecrets, sealSecret } from '~/lib/sealed-secret.server'
import type { ProjectField } from '~/features/map/project-fields.server'
import { expiresSoon, type TrackerProviderName } from './tracker-api'
import type { Connection } from './connector/provider'

/**
 * A project's tracker link (CONTRACT §14, ADR 38): one row per project in the links table every
 * provider shares (github_links, with its provider), as stored and as every member reads it
 * (never the token, never the webhook secret). The sync log is shared too.
 */

export type TrackerStatus =
  'ok' | 'token_invalid' | 'project_missing' | 'rate_limited' | 'unreachable' | 'token_expiring'

export type TrackerLinkRow = {
  projectId: string
  workspaceId: string
  provider: TrackerProviderName
  repository: string
  url: string | null
  settings: string | null
  tokenExpiresAt: string | null
  tokenCipher: string
  webhookSecretCipher: string
  linkedAt: string
  linkedBy: string
  linkedByName: string
  status: TrackerStatus | 'repository_missing'
  error: string | null
  lastSyncAt: string | null
  since: string | null
  retryAt: string | null
}

export type PublicTracker = {
  provider: TrackerProviderName
  url: string
  project: string
  linkedAt: string
  linkedBy: { memberId: string; name: string }
  status: TrackerStatus
  lastSyncAt: string | null
  error: string | null
  tokenExpiresAt: string | null
}

const COLUMNS = `project_id as projectId, workspace_id as workspaceId, provider, repository, url, settings,
  token_expires_at as tokenExpiresAt, token_cipher as tokenCipher, webhook_secret_cipher as webhookSecretCipher,
  linked_at as linkedAt, linked_by as linkedBy, linked_by_name as linkedByName, status, error,
  last_sync_at as lastSyncAt, since, retry_at as retryAt`

/** The project's link, whichever provider. */
export function findTrackerLink(projectId: string): TrackerLinkRow | undefined {
  return statement(`select ${COLUMNS} from github_links where project_id = ?`).get(projectId) as
    TrackerLinkRow | undefined
}

/** Every link: the connector's worker serves them all. */
export function connectorLinks(): TrackerLinkRow[] {
  return getDb().$client.prepare(`select ${COLUMNS} from github_links`).all() as TrackerLinkRow[]
}

const GITHUB_WEB = 'https://github.com'

/** When a poll that found nothing last answered, per project: in memory, so such a poll writes nothing. */
const quietPolls = () => singleton('tracker-quiet-polls', () => new Map<string, string>())
export const noteQuietPoll = (projectId: string, at: string) => quietPolls().set(projectId, at)
/** A link made, changed or removed starts without a quiet poll. */
export const forgetQuietPoll = (projectId: string) => quietPolls().delete(projectId)

export function publicTracker(row: TrackerLinkRow, now = Date.now()): PublicTracker {
  let status: TrackerStatus = row.status === 'repository_missing' ? 'project_missing' : row.status
  if (status === 'ok' && expiresSoon(row.tokenExpiresAt, now)) status = 'token_expiring'
  return {
    provider: row.provider,
    url: row.url ?? GITHUB_WEB,
    project: row.repository,
    linkedAt: row.linkedAt,
    linkedBy: { memberId: row.linkedBy, name: row.linkedByName },
    status,
    lastSyncAt: [row.lastSyncAt, quietPolls().get(row.projectId) ?? null].reduce(
      (a, b) => (a === null || (b !== null && b > a) ? b : a),
      null,
    ),
    error: row.error,
    tokenExpiresAt: row.tokenExpiresAt,
  }
}

export function trackerOfProject(projectId: string): PublicTracker | null {
  const row = findTrackerLink(projectId)
  return row ? publicTracker(row) : null
}

/** The bundle's `project.tracker` for members (CONTRACT §14), registered with the map at start. */
export const trackerProjectField: ProjectField = { name: 'tracker', read: trackerOfProject }

/**
 * The sealing purposes of a link's token and webhook secret (ADR 26, issue 43): GitHub's links
 * keep theirs from before the connector (§13's links stay readable), the others their own.
 */
const sealed = (provider: TrackerProviderName, what: 'token' | 'webhook-secret') =>
  `${provider === 'github' ? 'github' : 'tracker'}-${what}` as const

export const sealTrackerToken = (token: string, projectId: string, provider: TrackerProviderName) =>
  sealSecret(sealed(provider, 'token'), projectId, token)
export const sealTrackerWebhookSecret = (secret: string, projectId: string, provider: TrackerProviderName) =>
  sealSecret(sealed(provider, 'webhook-secret'), projectId, secret)
export const openTrackerWebhookSecret = (row: TrackerLinkRow) =>
  openSecret(sealed(row.provider, 'webhook-secret'), row.projectId, row.webhookSecretCipher)
/** Whether this server can still open the link's token (SESSION_SECRET unchanged). */
export const tokenOpens = (row: TrackerLinkRow) =>
  openSecret(sealed(row.provider, 'token'), row.projectId, row.tokenCipher) !== null

/** At start: seals the GitHub webhook secrets of links made before they were kept sealed (migration 0013). */
export const sealClearGithubWebhookSecrets = (client: Database.Database) =>
  sealClearSecrets(client, {
    table: 'github_links',
    id: 'project_id',
    column: 'webhook_secret_cipher',
    purpose: 'github-webhook-secret',
  })

/** The tracker's API address: GitHub's is the server's GITHUB_API_URL (CONTRACT §13), the others' the link's. */
export const apiUrlOf = (row: Pick<TrackerLinkRow, 'provider' | 'url'>) =>
  row.provider === 'github' ? getEnv().GITHUB_API_URL : row.url

/** The provider's view of the link, or null when this server cannot open its token. */
export function connectionOf(row: TrackerLinkRow): Connection | null {
  const token = openSecret(sealed(row.provider, 'token'), row.projectId, row.tokenCipher)
  const url = apiUrlOf(row)
  if (token === null || !url) return null
  return {
    url,
    project: row.repository,
    token,
    settings: row.settings ? (JSON.parse(row.settings) as Record<string, unknown>) : {},
  }
}

export function setTrackerStatus(
  projectId: string,
  status: TrackerStatus,
  error: string | null,
  retryAt: string | null = null,
) {
  getDb()
    .$client.prepare('update github_links set status = ?, error = ?, retry_at = ? where project_id = ?')
    .run(status, error, retryAt, projectId)
}

/** After a call the tracker answered: fine again (a refused token stays refused until relinked). */
export function markTrackerReachable(projectId: string) {
  getDb()
    .$client.prepare(
      `update github_links set status = 'ok', error = null, retry_at = null
       where project_id = ? and status in ('rate_limited', 'unreachable', 'project_missing')`,
    )
    .run(projectId)
}

export function setTrackerCursor(projectId: string, since: string | null, lastSyncAt: string) {
  getDb()
    .$client.prepare(
      'update github_links set since = coalesce(?, since), last_sync_at = ? where project_id = ?',
    )
    .run(since, lastSyncAt, projectId)
}

export type TrackerLogEntry = {
  direction: 'push' | 'pull'
  featureId?: string | null
  issue?: string | null
  action: string
  status: 'ok' | 'retrying' | 'failed'
  error?: string | null
}

const LOG_KEEP = 50

/** One sync operation in the log all providers share (CONTRACT §13, §14). */
export function logTracker(projectId: string, entry: TrackerLogEntry, at = new Date()) {
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
  /** `#12`, `SHOP-12` (GitHub's entries from before the connector: the number). */
  issue: string | number | null
  action: string
  status: 'ok' | 'retrying' | 'failed'
  error: string | null
}

export function listTrackerLog(projectId: string): PublicLogEntry[] {
  return getDb()
    .$client.prepare(
      `select at, direction, feature_id as featureId, issue, action, status, error from github_log
       where project_id = ? order by seq desc limit ?`,
    )
    .all(projectId, LOG_KEEP) as PublicLogEntry[]
}
