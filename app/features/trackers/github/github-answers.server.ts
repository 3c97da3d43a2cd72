import { getDb } from '~/lib/db/db.server'
import { DomainError, refuse } from '~/lib/errors'
import { authorize } from '~/features/map/door.server'
import { findProject } from '~/features/map/entities.server'
import type { GithubLink } from '~/features/map/bundle-types'
import type { ProjectField } from '~/features/map/project-fields.server'
import type { WorkspaceContext } from '~/features/workspaces/index.server'
import { findTrackerLink, publicTracker, type TrackerLinkRow } from '../tracker-link.server'
import { getTrackerLog, linkTracker, unlinkTracker } from '../tracker-connect.server'
import { createTrackerIssue, sendReleaseToTracker } from '../tracker-push.server'
import { importTrackerIssues, syncTracker, type TrackerImportInput } from '../tracker-sync.server'
import { receiveTrackerWebhook } from '../tracker-webhook.server'
import { githubCode, githubText } from './github-codes'

/**
 * GitHub's §13 answers (CONTRACT §13, ADR 38): the routes of §13 call the connector through
 * these, and get §13's shapes (`github` on the project and on features, `repository`,
 * `repository_missing`, the log's issue numbers) and refusal codes (`github_*`). Nothing here
 * talks to GitHub or keeps state: the connector does.
 */

/** The project's `github` (CONTRACT §13), as the board reads it. */
export type PublicGithubLink = GithubLink

/** Runs a connector call for a §13 route, its refusals in §13's words. */
export async function asGithub<T>(run: () => Promise<T> | T): Promise<T> {
  try {
    return await run()
  } catch (error) {
    if (!(error instanceof DomainError) || githubCode(error.code) === error.code) throw error
    const field = error.field === 'project' ? 'repository' : error.field
    const renamed = new DomainError(error.kind, githubCode(error.code), githubText(error.message), field)
    renamed.retryAfter = error.retryAfter
    throw renamed
  }
}

export function publicGithub(row: TrackerLinkRow): PublicGithubLink {
  const tracker = publicTracker(row)
  const status = tracker.status === 'project_missing' ? 'repository_missing' : tracker.status
  return {
    repository: row.repository,
    linkedAt: row.linkedAt,
    linkedBy: { memberId: row.linkedBy, name: row.linkedByName },
    status: status === 'token_expiring' ? 'ok' : status,
    lastSyncAt: tracker.lastSyncAt,
    error: row.error,
  }
}

/** The project's GitHub link, or undefined when it has none (or another tracker's). */
export function findGithubLink(projectId: string): TrackerLinkRow | undefined {
  const row = findTrackerLink(projectId)
  return row?.provider === 'github' ? row : undefined
}

/** The project's `github` as the bundle shows it (CONTRACT §13), or null. */
export function githubOfProject(projectId: string): PublicGithubLink | null {
  const row = findGithubLink(projectId)
  return row ? publicGithub(row) : null
}

/** The bundle's `project.github` for members (CONTRACT §13), registered with the map at start. */
export const githubProjectField: ProjectField = { name: 'github', read: githubOfProject }

const projectTitle = (ctx: WorkspaceContext, projectId: string) =>
  findProject(getDb(), projectId, ctx.workspace.id).title

/** `GET /v1/projects/{id}/github`: any member. */
export function getRepositoryLink(ctx: WorkspaceContext, projectId: string) {
  projectTitle(ctx, projectId)
  return { github: githubOfProject(projectId) }
}

/** `PUT /v1/projects/{id}/github`: the connector's link with GitHub's provider (`droppedPushes`: features whose waiting pushes went). */
export async function linkRepository(
  ctx: WorkspaceContext,
  projectId: string,
  input: { repository: string; token: string },
) {
  const { webhookSecret, droppedPushes } = await asGithub(() =>
    linkTracker(ctx, projectId, { provider: 'github', ...input }),
  )
  return { github: githubOfProject(projectId)!, webhookSecret, droppedPushes }
}

/** `DELETE /v1/projects/{id}/github`: a GitHub link only; features keep their issues, waiting pushes stay. */
export async function unlinkRepository(ctx: WorkspaceContext, projectId: string) {
  authorize(ctx, 'linkTracker')
  projectTitle(ctx, projectId)
  if (!findGithubLink(projectId))
    throw refuse.conflict('github_not_linked', 'This project is not linked to a GitHub repository.')
  await asGithub(() => unlinkTracker(ctx, projectId))
  return { github: null }
}

/** `GET /v1/projects/{id}/github/log`: the one log, issues as GitHub's numbers. */
export function getSyncLog(ctx: WorkspaceContext, projectId: string) {
  const { items } = getTrackerLog(ctx, projectId)
  return {
    items: items.map((item) => {
      const issue = item.issue
      return {
        ...item,
        issue: typeof issue === 'string' && /^#\d+$/.test(issue) ? Number(issue.slice(1)) : issue,
      }
    }),
  }
}

/** `POST /v1/features/{id}/github`: the feature with its new `github`. */
export const createIssueForFeature = (ctx: WorkspaceContext, featureId: string) =>
  asGithub(() => createTrackerIssue(ctx, featureId, 'github'))

/** `POST /v1/milestones/{id}/github`: `{created, failed}`, the failures with §13's codes. */
export async function sendReleaseToGithub(ctx: WorkspaceContext, milestoneId: string) {
  const { created, failed } = await asGithub(() => sendReleaseToTracker(ctx, milestoneId, 'github'))
  return { created, failed: failed.map((f) => ({ ...f, error: githubCode(f.error) })) }
}

/** `POST /v1/projects/{id}/github/sync`. */
export const syncNow = (ctx: WorkspaceContext, projectId: string) =>
  asGithub(() => syncTracker(ctx, projectId, 'github'))

/** `POST /v1/projects/{id}/github/import`. */
export const importIssues = (ctx: WorkspaceContext, projectId: string, input: TrackerImportInput) =>
  asGithub(() => importTrackerIssues(ctx, projectId, input, 'github'))

/** `POST /v1/github/webhook/{projectId}`: the connector's one webhook entry, for a GitHub link. */
export const receiveGithubWebhook = (projectId: string | undefined, body: string, headers: Headers) =>
  receiveTrackerWebhook(projectId, body, headers, 'github')
