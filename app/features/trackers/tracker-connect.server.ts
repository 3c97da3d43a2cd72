import crypto from 'node:crypto'
import { getDb } from '~/lib/db/db.server'
import { DomainError, refuse } from '~/lib/errors'
import { authorize, executeChange } from '~/features/map/door.server'
import { findProject } from '~/features/map/entities.server'
import type { WorkspaceContext } from '~/features/workspaces/index.server'
import { getSyncLog, linkRepository, unlinkRepository } from '~/features/github/index.server'
import { expiresSoon, PROVIDER_LABEL, type LinkTrackerInput } from './tracker-api'
import { checkTrackerUrl } from './tracker-url.server'
import {
  findTrackerLink,
  openTrackerWebhookSecret,
  publicTracker,
  sealTrackerToken,
  sealTrackerWebhookSecret,
} from './tracker-link.server'
import { noteExpiringToken, trackerRefusal } from './tracker-failures.server'
import { withTrackerLock } from './tracker-lock.server'
import { providerOf } from './connector/providers.server'
import { TrackerFailure } from './connector/provider'
import { wakeTrackerWorker } from './tracker-outbox.server'

/**
 * `PUT/GET/DELETE /v1/projects/{id}/tracker` (CONTRACT §14): a project links to at most one
 * tracker. GitHub's link is §13's own (its feature checks and stores it); GitLab's and Jira's
 * are checked here with their provider, then kept in the same table, the token sealed.
 */

/** §13's refusal codes as §14 names them, for GitHub answering on the generic routes. */
const GENERIC_CODES: Record<string, string> = {
  github_token_invalid: 'tracker_token_invalid',
  github_repository_invalid: 'tracker_project_invalid',
  github_permission_missing: 'tracker_permission_missing',
  github_unreachable: 'tracker_unreachable',
  github_repository_missing: 'tracker_project_missing',
  github_rate_limited: 'tracker_rate_limited',
  github_not_linked: 'tracker_not_linked',
}

/** Runs a §13 call for the generic route, its refusals renamed as §14 says. */
export async function asGeneric<T>(run: () => Promise<T> | T): Promise<T> {
  try {
    return await run()
  } catch (error) {
    if (error instanceof DomainError && GENERIC_CODES[error.code]) {
      const renamed = new DomainError(error.kind, GENERIC_CODES[error.code], error.message, error.field)
      renamed.retryAfter = error.retryAfter
      throw renamed
    }
    throw error
  }
}

const projectTitle = (ctx: WorkspaceContext, projectId: string) =>
  findProject(getDb(), projectId, ctx.workspace.id).title

export async function linkTracker(ctx: WorkspaceContext, projectId: string, input: LinkTrackerInput) {
  authorize(ctx, 'linkTracker')
  projectTitle(ctx, projectId)
  if (input.provider === 'github') {
    const { webhookSecret } = await asGeneric(() =>
      linkRepository(ctx, projectId, { repository: input.repository, token: input.token }),
    )
    return { tracker: publicTracker(findTrackerLink(projectId)!), webhookSecret }
  }
  const url = await checkTrackerUrl(input.url)
  let checked
  try {
    checked = await providerOf(input.provider).check({
      url,
      project: input.project,
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
  const webhookSecret = await withTrackerLock(projectId, async () =>
    storeLink(ctx, projectId, { provider: input.provider, url, token: input.token, ...checked }),
  )
  const row = findTrackerLink(projectId)!
  if (expiresSoon(row.tokenExpiresAt)) noteExpiringToken(row)
  wakeTrackerWorker()
  return { tracker: publicTracker(row), webhookSecret }
}

function storeLink(
  ctx: WorkspaceContext,
  projectId: string,
  link: {
    provider: 'gitlab' | 'jira'
    url: string
    project: string
    token: string
    settings: Record<string, unknown>
    tokenExpiresAt: string | null
  },
) {
  const title = projectTitle(ctx, projectId)
  const before = findTrackerLink(projectId)
  const same = before && before.provider === link.provider && before.repository === link.project
  // Kept across a relink of the same tracker (CONTRACT §13); a new one otherwise.
  const kept = same ? openTrackerWebhookSecret(before) : null
  const webhookSecret = kept ?? crypto.randomBytes(32).toString('hex')
  const now = new Date().toISOString()
  const label = PROVIDER_LABEL[link.provider]
  executeChange(ctx, {
    action: 'linkTracker',
    command: { type: 'tracker.link', projectId, provider: link.provider },
    log: {
      notice: {
        projectId,
        kind: 'project',
        summary: `${before ? 'Relinked' : 'Linked'} project '${title}' to ${label} tracker project '${link.project}'`,
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
          tokenCipher: sealTrackerToken(link.token, projectId),
          webhookSecretCipher: sealTrackerWebhookSecret(webhookSecret, projectId),
          now,
          memberId: ctx.member.id,
          name: ctx.account.name,
          since: same ? before.since : now,
        })
      // Pushes waiting for another tracker's issues are dropped: those links are no longer synced.
      getDb()
        .$client.prepare(
          `delete from github_outbox where project_id = ? and (provider <> ? or feature_id not in
             (select feature_id from tracker_issues where project_id = ? and provider = ? and project = ?))`,
        )
        .run(projectId, link.provider, projectId, link.provider, link.project)
    },
  })
  return webhookSecret
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
  const row = findTrackerLink(projectId)
  if (!row) throw refuse.conflict('tracker_not_linked', 'This project is not linked to a tracker.')
  if (row.provider === 'github') {
    await asGeneric(() => unlinkRepository(ctx, projectId))
    return { tracker: null }
  }
  await withTrackerLock(projectId, async () =>
    executeChange(ctx, {
      action: 'linkTracker',
      command: { type: 'tracker.unlink', projectId },
      log: {
        notice: {
          projectId,
          kind: 'project',
          summary: `Unlinked project '${title}' from ${PROVIDER_LABEL[row.provider]} tracker project '${row.repository}'`,
        },
      },
      write: () => {
        getDb().$client.prepare('delete from github_links where project_id = ?').run(projectId)
      },
    }),
  )
  return { tracker: null }
}

/** `GET /v1/projects/{id}/tracker/log`: any member; the one log of every provider. */
export function getTrackerLog(ctx: WorkspaceContext, projectId: string) {
  return getSyncLog(ctx, projectId)
}
