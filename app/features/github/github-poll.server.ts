import { getDb } from '~/lib/db/db.server'
import { refuse } from '~/lib/errors'
import { authorize } from '~/features/map/door.server'
import { findProject } from '~/features/map/entities.server'
import { can } from '~/features/map/permissions'
import type { WorkspaceContext } from '~/features/workspaces/index.server'
import { callOptions, githubCall, githubClient, GithubFailure, nextPage } from './github-client.server'
import { findLink, markReachable, noteQuietSync, publicLink, type LinkRow } from './github-link.server'
import { applyIssues, linkedIssueNumbers, markIssueMissing, type GithubIssue } from './github-pull.server'
import { splitRepository } from './issue-mapping'
import {
  assertLinkUsable,
  linkingActor,
  recordFailure,
  refuseForFailure,
  requireLink,
  tokenOf,
} from './sync-state.server'
import { withProjectLock } from './sync-lock.server'

/**
 * Polling a linked repository (CONTRACT §13): `GET /repos/{o}/{r}/issues?state=all&since=…`
 * with `If-None-Match`. `since` and the ETag move only when something came back, so an
 * unchanged repository answers 304 to the very same request (free of rate limit), and nothing is
 * written. `Sync now` reads every issue instead, and notices issues that are gone.
 */

type Page = { issues: GithubIssue[]; etag: string | null; next: string | null }

async function firstPage(
  link: LinkRow,
  token: string,
  params: Record<string, string | number>,
  etag: string | null,
): Promise<Page | 'unchanged'> {
  const octokit = githubClient(token)
  const { owner, repo } = splitRepository(link.repository)
  try {
    const res = await octokit.rest.issues.listForRepo({
      owner,
      repo,
      per_page: 100,
      ...params,
      headers: etag ? { 'if-none-match': etag } : {},
      request: callOptions(),
    })
    return {
      issues: res.data as GithubIssue[],
      etag: res.headers.etag ?? null,
      next: nextPage(res.headers.link),
    }
  } catch (error) {
    if ((error as { status?: number }).status === 304) return 'unchanged'
    throw error
  }
}

async function restOf(token: string, next: string | null): Promise<GithubIssue[]> {
  const octokit = githubClient(token)
  const issues: GithubIssue[] = []
  while (next) {
    const url = next
    const res = await githubCall(() => octokit.request({ method: 'GET', url, request: callOptions() }))
    issues.push(...(res.data as GithubIssue[]))
    next = nextPage(res.headers.link)
  }
  return issues
}

const latest = (issues: readonly GithubIssue[], since: string | null) =>
  issues.reduce((max, i) => (max === null || i.updated_at > max ? i.updated_at : max), since)

function saveCursor(projectId: string, etag: string | null, since: string | null, at: string) {
  getDb()
    .$client.prepare('update github_links set etag = ?, since = ?, last_sync_at = ? where project_id = ?')
    .run(etag, since, at, projectId)
}

/** One conditional poll; returns how many features changed. Throws GithubFailure. */
export async function pollOnce(link: LinkRow): Promise<number> {
  const token = tokenOf(link)
  if (!token)
    throw new GithubFailure(
      { kind: 'token_invalid', message: 'The stored token cannot be read; link the repository again.' },
      null,
    )
  const params: Record<string, string> = { state: 'all', sort: 'updated', direction: 'asc' }
  if (link.since) params.since = link.since
  const first = await githubCall(() => firstPage(link, token, params, link.etag))
  const now = new Date()
  if (link.status !== 'ok') markReachable(link.projectId)
  if (first === 'unchanged') {
    // Nothing changed: nothing is written (the time of this poll is kept in memory).
    noteQuietSync(link.projectId, now)
    return 0
  }
  const issues = [...first.issues, ...(await restOf(token, first.next))]
  const pulled = applyIssues(link, issues)
  saveCursor(link.projectId, first.etag, latest(issues, link.since), now.toISOString())
  return pulled
}

/** `Sync now`'s full read: every issue of the repository, and linked issues no longer there marked `missing`. */
async function readEverything(link: LinkRow): Promise<number> {
  const token = tokenOf(link)!
  const first = await githubCall(() =>
    firstPage(link, token, { state: 'all', sort: 'updated', direction: 'asc' }, null),
  )
  if (first === 'unchanged') return 0
  const issues = [...first.issues, ...(await restOf(token, first.next))]
  markReachable(link.projectId)
  const pulled = applyIssues(link, issues)
  const seen = new Set(issues.filter((i) => !i.pull_request).map((i) => i.number))
  for (const [number, row] of linkedIssueNumbers(link))
    if (!seen.has(number)) markIssueMissing(link, row.featureId)
  saveCursor(link.projectId, null, latest(issues, link.since), new Date().toISOString())
  return pulled
}

/** `POST /v1/projects/{id}/github/sync`: polls at once and answers when done. */
export async function syncNow(ctx: WorkspaceContext, projectId: string) {
  authorize(ctx, 'edit')
  findProject(getDb(), projectId, ctx.workspace.id)
  return withProjectLock(projectId, async () => {
    const link = requireLink(projectId)
    assertLinkUsable(link)
    let pulled
    try {
      pulled = await readEverything(link)
    } catch (error) {
      refuseForFailure(link, error, { direction: 'pull', action: 'sync' })
    }
    const after = findLink(projectId)
    if (!after)
      throw refuse.conflict('github_not_linked', 'This project is not linked to a GitHub repository.')
    return { pulled, lastSyncAt: publicLink(after).lastSyncAt }
  })
}

/** Whether the worker should poll this link now: not stopped, not waiting, and its member may still edit. */
export function mayPoll(link: LinkRow, now: number): boolean {
  if (link.status === 'token_invalid' || (link.retryAt && Date.parse(link.retryAt) > now)) return false
  const actor = linkingActor(link)
  return !!actor && can(actor, 'edit')
}

/** The worker's poll of one link, its failures recorded (the next poll tries again). */
export async function scheduledPoll(link: LinkRow) {
  try {
    await pollOnce(link)
  } catch (error) {
    if (!(error instanceof GithubFailure)) throw error
    if (error.failure.kind === 'missing') {
      // Written once: later polls that find it still missing change nothing.
      getDb()
        .$client.prepare(
          `update github_links set status = 'repository_missing', error = ?
           where project_id = ? and status <> 'token_invalid' and (status <> 'repository_missing' or error is not ?)`,
        )
        .run(error.failure.message, link.projectId, error.failure.message)
      return
    }
    recordFailure(
      link,
      error.failure,
      { direction: 'pull', action: 'poll' },
      error.failure.kind !== 'token_invalid',
    )
  }
}
