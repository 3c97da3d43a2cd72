import crypto from 'node:crypto'
import { getDb } from '~/lib/db/db.server'
import { refuse } from '~/lib/errors'
import { authorize, executeChange } from '~/features/map/door.server'
import { findProject } from '~/features/map/entities.server'
import type { WorkspaceContext } from '~/features/workspaces/index.server'
import { asFailure, callOptions, githubClient } from './github-client.server'
import {
  findLink,
  forgetQuietSync,
  listLog,
  publicLink,
  type LinkRow,
  type PublicGithubLink,
} from './github-link.server'
import { issueLinksOf } from './feature-issue.server'
import { domainRefusal } from './sync-state.server'
import { withProjectLock } from './sync-lock.server'
import { splitRepository } from './issue-mapping'
import { encryptToken, openWebhookSecret, sealWebhookSecret } from './github-secrets.server'
import { wakeGithubWorker } from './github-outbox.server'
import { pollSoon } from './github-worker.server'

/**
 * Linking a project to a repository (CONTRACT §13): OWNERs and ADMINs on an active plan. The token
 * is checked with GitHub at once (`GET /repos/{owner}/{name}`), then kept encrypted and never shown
 * again; the webhook secret is shown in the answer only (and kept on a relink). Linking,
 * relinking and unlinking are Activity lines and events, not undo steps.
 */

export type LinkInput = { repository: string; token: string }

/** Asks GitHub whether the token may write issues of the repository; answers its canonical `owner/name`. */
async function checkRepository(input: LinkInput): Promise<string> {
  const { owner, repo } = splitRepository(input.repository)
  let data
  try {
    data = (await githubClient(input.token).rest.repos.get({ owner, repo, request: callOptions() })).data
  } catch (error) {
    const { failure, status } = asFailure(error)
    if (failure.kind === 'rate_limited') throw domainRefusal(failure)
    if (failure.kind === 'token_invalid')
      throw refuse.invalid('github_token_invalid', `GitHub refused the token: ${failure.message}`, 'token')
    if (failure.kind === 'missing' || failure.kind === 'forbidden' || (status !== null && status < 500))
      throw refuse.invalid(
        'github_repository_invalid',
        `GitHub does not show this repository to the token: ${failure.message}`,
        'repository',
      )
    throw refuse.upstream('github_unreachable', `GitHub could not be reached: ${failure.message}`)
  }
  if (!data.permissions?.push)
    throw refuse.invalid(
      'github_permission_missing',
      'The token may not write issues of this repository (Issues: read and write is needed).',
      'token',
    )
  return data.full_name
}

function projectTitle(ctx: WorkspaceContext, projectId: string) {
  return findProject(getDb(), projectId, ctx.workspace.id).title
}

/**
 * Where the first poll of a new or changed link starts, so that nothing changed on GitHub while
 * the project was unlinked or stopped is missed: the same repository again keeps its cursor; a
 * repository some features already have issues in is read whole once; any other from now.
 */
function sinceForLink(
  projectId: string,
  before: LinkRow | undefined,
  repository: string,
  now: string,
): string | null {
  if (before && before.repository.toLowerCase() === repository.toLowerCase()) return before.since
  return issueLinksOf(projectId, repository).size > 0 ? null : now
}

/**
 * `PUT /v1/projects/{id}/github`. Pushes waiting for features whose issues are in this repository
 * go on (made before an unlink, or while unlinked); those for another repository's issues are
 * dropped, as those links are no longer synced: `droppedPushes` counts their features.
 */
export async function linkRepository(ctx: WorkspaceContext, projectId: string, input: LinkInput) {
  authorize(ctx, 'linkGithub')
  projectTitle(ctx, projectId)
  const repository = await checkRepository(input)
  // After any sync operation of the project under way (it must not write onto the new link).
  const { webhookSecret, droppedPushes } = await withProjectLock(projectId, async () =>
    storeLink(ctx, projectId, repository, input.token),
  )
  pollSoon(projectId)
  wakeGithubWorker()
  return { github: publicLink(findLink(projectId)!), webhookSecret, droppedPushes }
}

/** The features with pushes waiting in the outbox (any repository). */
export function pendingPushFeatures(projectId: string): number {
  return getDb()
    .$client.prepare(
      "select count(distinct feature_id) from github_outbox where project_id = ? and provider = 'github'",
    )
    .pluck()
    .get(projectId) as number
}

/** Drops the waiting pushes of features whose issues are not in `repository`; answers how many features had some. */
function dropPushesOutside(projectId: string, repository: string): number {
  const client = getDb().$client
  const outside = `select o.seq, o.feature_id from github_outbox o left join github_issues i on i.feature_id = o.feature_id
    where o.project_id = ? and o.provider = 'github' and (i.repository is null or lower(i.repository) <> lower(?))`
  const features = client
    .prepare(`select count(distinct feature_id) from (${outside})`)
    .pluck()
    .get(projectId, repository) as number
  client
    .prepare(`delete from github_outbox where seq in (select seq from (${outside}))`)
    .run(projectId, repository)
  return features
}

function storeLink(ctx: WorkspaceContext, projectId: string, repository: string, token: string) {
  const title = projectTitle(ctx, projectId)
  const before = findLink(projectId)
  // Kept across a relink (CONTRACT §13); a new one when the stored one no longer opens.
  const kept = before && openWebhookSecret(before.webhookSecretCipher, projectId)
  const webhookSecret = kept ?? crypto.randomBytes(32).toString('hex')
  const now = new Date().toISOString()
  const since = sinceForLink(projectId, before, repository, now)
  const verb = before ? 'Relinked' : 'Linked'
  let droppedPushes = 0
  executeChange(ctx, {
    action: 'linkGithub',
    command: { type: 'github.link', projectId, repository },
    log: {
      notice: {
        projectId,
        kind: 'project',
        summary: `${verb} project '${title}' to GitHub repository '${repository}'`,
      },
    },
    write: () => {
      getDb()
        .$client.prepare(
          `insert into github_links (project_id, workspace_id, repository, token_cipher, webhook_secret_cipher, linked_at, linked_by, linked_by_name,
             status, error, last_sync_at, etag, since, retry_at)
           values (@projectId, @workspaceId, @repository, @tokenCipher, @webhookSecretCipher, @now, @memberId, @name, 'ok', null, null, null, @since, null)
           on conflict (project_id) do update set provider = 'github', url = null, settings = null, token_expires_at = null,
             repository = excluded.repository, token_cipher = excluded.token_cipher,
             webhook_secret_cipher = excluded.webhook_secret_cipher,
             linked_at = excluded.linked_at, linked_by = excluded.linked_by, linked_by_name = excluded.linked_by_name,
             status = 'ok', error = null, last_sync_at = null, etag = null, since = excluded.since, retry_at = null`,
        )
        .run({
          projectId,
          workspaceId: ctx.workspace.id,
          repository,
          tokenCipher: encryptToken(token, projectId),
          webhookSecretCipher: sealWebhookSecret(webhookSecret, projectId),
          now,
          since,
          memberId: ctx.member.id,
          name: ctx.account.name,
        })
      droppedPushes = dropPushesOutside(projectId, repository)
    },
  })
  forgetQuietSync(projectId)
  return { webhookSecret, droppedPushes }
}

/** `GET /v1/projects/{id}/github`: any member. */
export function getRepositoryLink(
  ctx: WorkspaceContext,
  projectId: string,
): { github: PublicGithubLink | null } {
  projectTitle(ctx, projectId)
  const row = findLink(projectId)
  return { github: row ? publicLink(row) : null }
}

/**
 * `DELETE /v1/projects/{id}/github`: sync stops and the token goes; features keep their issues,
 * and pushes waiting for them stay, to go when the same repository is linked again (issue 43: an
 * unlink and a link lost them, and a card and its issue then differed under the same `#3`).
 */
export async function unlinkRepository(ctx: WorkspaceContext, projectId: string) {
  authorize(ctx, 'linkGithub')
  projectTitle(ctx, projectId)
  await withProjectLock(projectId, async () => removeLink(ctx, projectId))
  return { github: null }
}

function removeLink(ctx: WorkspaceContext, projectId: string) {
  const title = projectTitle(ctx, projectId)
  const row = findLink(projectId)
  if (!row) throw refuse.conflict('github_not_linked', 'This project is not linked to a GitHub repository.')
  executeChange(ctx, {
    action: 'linkGithub',
    command: { type: 'github.unlink', projectId },
    log: {
      notice: {
        projectId,
        kind: 'project',
        summary: `Unlinked project '${title}' from GitHub repository '${row.repository}'`,
      },
    },
    write: () => {
      getDb()
        .$client.prepare("delete from github_links where project_id = ? and provider = 'github'")
        .run(projectId)
    },
  })
  forgetQuietSync(projectId)
}

/** `GET /v1/projects/{id}/github/log`: any member. */
export function getSyncLog(ctx: WorkspaceContext, projectId: string) {
  projectTitle(ctx, projectId)
  return { items: listLog(projectId) }
}
