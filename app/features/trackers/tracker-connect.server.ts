import crypto from 'node:crypto'
import { getDb } from '~/lib/db/db.server'
import { refuse } from '~/lib/errors'
import { authorize, executeChange } from '~/features/map/door.server'
import { findProject } from '~/features/map/entities.server'
import type { WorkspaceContext } from '~/features/workspaces/index.server'
import { expiresSoon, linkedNoun, type LinkTrackerInput, type TrackerProviderName } from './tracker-api'
import { checkTrackerUrl } from './tracker-url.server'
import {
  apiUrlOf,
  findTrackerLink,
  listTrackerLog,
  openTrackerWebhookSecret,
  forgetQuietPoll,
  publicTracker,
  sealTrackerToken,
  sealTrackerWebhookSecret,
  type TrackerLinkRow,
} from './tracker-link.server'
import { noteExpiringToken, trackerRefusal } from './tracker-failures.server'
import { withTrackerLock } from './tracker-lock.server'
import { providerOf } from './connector/providers.server'
import { TrackerFailure } from './connector/provider'
import { wakeTrackerWorker } from './tracker-outbox.server'
import { pollTrackerSoon } from './tracker-worker.server'

/**
 * `PUT/GET/DELETE /v1/projects/{id}/tracker` (CONTRACT §13, §14): a project links to at most one
 * tracker. Every provider's link is checked here with its provider (GitHub's at GITHUB_API_URL,
 * the others' at the member's URL under the address rule), then kept in the one link table, the
 * token sealed. §13's routes reach the same through the GitHub answers (github-answers.server.ts).
 */

const projectTitle = (ctx: WorkspaceContext, projectId: string) =>
  findProject(getDb(), projectId, ctx.workspace.id).title

export async function linkTracker(ctx: WorkspaceContext, projectId: string, input: LinkTrackerInput) {
  authorize(ctx, 'linkTracker')
  projectTitle(ctx, projectId)
  const url =
    input.provider === 'github'
      ? apiUrlOf({ provider: 'github', url: null })!
      : await checkTrackerUrl(input.url)
  const project = input.provider === 'github' ? input.repository : input.project
  let checked
  try {
    checked = await providerOf(input.provider).check({
      url,
      project,
      token: input.token,
      email: input.provider === 'jira' ? input.email : undefined,
    })
  } catch (error) {
    if (!(error instanceof TrackerFailure)) throw error
    if (error.kind === 'token_invalid')
      throw refuse.invalid(
        'tracker_token_invalid',
        `The tracker refused the token: ${error.message}`,
        'token',
      )
    if (error.kind === 'project_invalid' || error.kind === 'missing')
      throw refuse.invalid(
        'tracker_project_invalid',
        `The tracker does not show this project: ${error.message}`,
        'project',
      )
    if (error.kind === 'permission_missing')
      throw refuse.invalid('tracker_permission_missing', error.message, 'token')
    throw trackerRefusal(error)
  }
  // After any sync operation of the project under way (it must not write onto the new link).
  const stored = await withTrackerLock(projectId, async () =>
    storeLink(ctx, projectId, {
      provider: input.provider,
      // GitHub's address is the server's (GITHUB_API_URL), read at each call: not kept.
      url: input.provider === 'github' ? null : url,
      token: input.token,
      ...checked,
    }),
  )
  const row = findTrackerLink(projectId)!
  if (expiresSoon(row.tokenExpiresAt)) noteExpiringToken(row)
  pollTrackerSoon(projectId)
  wakeTrackerWorker()
  return { tracker: publicTracker(row), ...stored }
}

/** The features with pushes waiting in the outbox (any tracker, any project of it). */
export function pendingPushFeatures(projectId: string): number {
  return getDb()
    .$client.prepare('select count(distinct feature_id) from github_outbox where project_id = ?')
    .pluck()
    .get(projectId) as number
}

/**
 * Where the first poll of a new or changed link starts, so that nothing changed while the
 * project was unlinked or stopped is missed: the same tracker project again keeps its cursor; one
 * some features already have issues in is read whole once; any other from now.
 */
function sinceForLink(
  projectId: string,
  before: TrackerLinkRow | undefined,
  link: { provider: TrackerProviderName; project: string },
  now: string,
): string | null {
  const same = (p: string) => p.toLowerCase() === link.project.toLowerCase()
  if (before && before.provider === link.provider && same(before.repository)) return before.since
  const known = getDb()
    .$client.prepare(
      'select 1 from tracker_issues where project_id = ? and provider = ? and lower(project) = lower(?) limit 1',
    )
    .get(projectId, link.provider, link.project)
  return known ? null : now
}

/**
 * Drops the waiting pushes that are not for the new link's tracker project (those links are no
 * longer synced); those for it go on (made before an unlink, or while unlinked). Answers how many
 * features had some.
 */
function dropPushesOutside(projectId: string, link: { provider: string; project: string }): number {
  const client = getDb().$client
  const outside = `select o.seq, o.feature_id from github_outbox o
    left join tracker_issues i on i.feature_id = o.feature_id and i.provider = o.provider
    where o.project_id = ? and (o.provider <> ? or i.project is null or lower(i.project) <> lower(?))`
  const features = client
    .prepare(`select count(distinct feature_id) from (${outside})`)
    .pluck()
    .get(projectId, link.provider, link.project) as number
  client
    .prepare(`delete from github_outbox where seq in (select seq from (${outside}))`)
    .run(projectId, link.provider, link.project)
  return features
}

function storeLink(
  ctx: WorkspaceContext,
  projectId: string,
  link: {
    provider: TrackerProviderName
    url: string | null
    project: string
    token: string
    settings: Record<string, unknown>
    tokenExpiresAt: string | null
  },
) {
  const title = projectTitle(ctx, projectId)
  const before = findTrackerLink(projectId)
  // Kept across a relink to the same tracker (CONTRACT §13: GitHub's across any relink); a new one otherwise.
  const kept = before && before.provider === link.provider ? openTrackerWebhookSecret(before) : null
  const webhookSecret = kept ?? crypto.randomBytes(32).toString('hex')
  const now = new Date().toISOString()
  const since = sinceForLink(projectId, before, link, now)
  let droppedPushes = 0
  executeChange(ctx, {
    action: 'linkTracker',
    command: { type: 'tracker.link', projectId, provider: link.provider },
    log: {
      notice: {
        projectId,
        kind: 'project',
        summary: `${before ? 'Relinked' : 'Linked'} project '${title}' to ${linkedNoun(link.provider)} '${link.project}'`,
      },
    },
    write: () => {
      getDb()
        .$client.prepare(
          `insert into github_links (project_id, workspace_id, provider, repository, url, settings, token_expires_at, token_cipher,
             webhook_secret_cipher, linked_at, linked_by, linked_by_name, status, error, last_sync_at, etag, since, retry_at)
           values (@projectId, @workspaceId, @provider, @project, @url, @settings, @tokenExpiresAt, @tokenCipher,
             @webhookSecretCipher, @now, @memberId, @name, 'ok', null, null, null, @since, null)
           on conflict (project_id) do update set provider = excluded.provider, repository = excluded.repository,
             url = excluded.url, settings = excluded.settings, token_expires_at = excluded.token_expires_at,
             token_cipher = excluded.token_cipher, webhook_secret_cipher = excluded.webhook_secret_cipher,
             linked_at = excluded.linked_at, linked_by = excluded.linked_by, linked_by_name = excluded.linked_by_name,
             status = 'ok', error = null, last_sync_at = null, etag = null, since = excluded.since, retry_at = null`,
        )
        .run({
          projectId,
          workspaceId: ctx.workspace.id,
          provider: link.provider,
          project: link.project,
          url: link.url,
          settings: JSON.stringify(link.settings),
          tokenExpiresAt: link.tokenExpiresAt,
          tokenCipher: sealTrackerToken(link.token, projectId, link.provider),
          webhookSecretCipher: sealTrackerWebhookSecret(webhookSecret, projectId, link.provider),
          now,
          memberId: ctx.member.id,
          name: ctx.account.name,
          since,
        })
      droppedPushes = dropPushesOutside(projectId, link)
    },
  })
  forgetQuietPoll(projectId)
  return { webhookSecret, droppedPushes }
}

/** `GET /v1/projects/{id}/tracker`: any member. */
export function getTracker(ctx: WorkspaceContext, projectId: string) {
  projectTitle(ctx, projectId)
  const row = findTrackerLink(projectId)
  return { tracker: row ? publicTracker(row) : null }
}

/** `DELETE /v1/projects/{id}/tracker`: sync stops, the token goes; features keep their issues. */
export async function unlinkTracker(ctx: WorkspaceContext, projectId: string) {
  authorize(ctx, 'linkTracker')
  const title = projectTitle(ctx, projectId)
  await withTrackerLock(projectId, async () => {
    const row = findTrackerLink(projectId)
    if (!row) throw refuse.conflict('tracker_not_linked', 'This project is not linked to a tracker.')
    executeChange(ctx, {
      action: 'linkTracker',
      command: { type: 'tracker.unlink', projectId },
      log: {
        notice: {
          projectId,
          kind: 'project',
          summary: `Unlinked project '${title}' from ${linkedNoun(row.provider)} '${row.repository}'`,
        },
      },
      // Pushes waiting for its issues stay: they go when the same tracker project is linked again (issue 43).
      write: () => {
        getDb().$client.prepare('delete from github_links where project_id = ?').run(projectId)
      },
    })
  })
  forgetQuietPoll(projectId)
  return { tracker: null }
}

/** `GET /v1/projects/{id}/tracker/log`: any member; the one log of every provider. */
export function getTrackerLog(ctx: WorkspaceContext, projectId: string) {
  projectTitle(ctx, projectId)
  return { items: listTrackerLog(projectId) }
}
