import { descriptionOfBody, issueBody, labelColor, titleOfIssue } from '../connector/issue-rules'
import { retryAfterAt, type FeatureFromIssue, type TrackerFeature } from '../tracker-feature'

/**
 * How a feature and its GitLab issue map onto each other (CONTRACT §14). Pure: the issue's
 * fields from a feature (the body and its footer exactly as GitHub's, §13), the labels and the
 * milestone it needs, and what an issue, as the API or an `Issue Hook` shows it, says about its
 * feature.
 */

/** GitLab's Reporter access level: the least that may sync (read, create and edit issues). */
export const REPORTER = 20

/** `group/name`, `group/sub/name`… as GitLab allows a project's full path. */
export const GITLAB_PROJECT_PATTERN = /^[A-Za-z0-9_][A-Za-z0-9_.-]*(?:\/[A-Za-z0-9_][A-Za-z0-9_.-]*)+$/

/** The project's id in API paths: its full path, URL-encoded (`group%2Fsub%2Fname`). */
export const projectRef = (path: string) => encodeURIComponent(path)

type Access = { access_level?: number | null } | null | undefined
export type GitlabProjectAccess = { permissions?: { project_access?: Access; group_access?: Access } | null }

/** The token's access level to a project: the higher of its own and its group's (0: none shown). */
export function accessLevelOf(project: GitlabProjectAccess): number {
  const levels = [project.permissions?.project_access, project.permissions?.group_access].map(
    (a) => a?.access_level ?? 0,
  )
  return Math.max(0, ...levels)
}

/** The colour of a tag's label, as GitLab takes it (`#rrggbb`). */
export const gitlabLabelColor = (tagColor: string) => `#${labelColor(tagColor)}`

/**
 * The label names an issue gets for a feature's tags (spelled as the project already has them,
 * names compared ignoring case), and the labels the project lacks, to be created first in the
 * tags' colours.
 */
export function labelsForTags(tags: TrackerFeature['tags'], existing: readonly { name: string }[]) {
  const known = new Map(existing.map((l) => [l.name.toLowerCase(), l.name]))
  const names: string[] = []
  const missing: { name: string; color: string }[] = []
  for (const tag of tags) {
    const have = known.get(tag.name.toLowerCase())
    if (!have) {
      missing.push({ name: tag.name, color: gitlabLabelColor(tag.color) })
      known.set(tag.name.toLowerCase(), tag.name)
    }
    const name = have ?? tag.name
    if (!names.includes(name)) names.push(name)
  }
  return { names, missing }
}

/** The project's milestone for a release: the one of the same title (an active one first), or null (to be created). */
export function milestoneFor(
  release: string,
  milestones: readonly { id: number; title: string; state?: string }[],
) {
  const same = milestones.filter((m) => m.title === release)
  return (same.find((m) => m.state !== 'closed') ?? same[0])?.id ?? null
}

/**
 * The issue's fields for a feature: title, description with the footer, labels as GitLab's comma
 * list, and the milestone (0 unassigns it, as GitLab's API says).
 */
export function gitlabIssueFields(
  feature: TrackerFeature,
  labels: readonly string[],
  milestoneId: number | null,
) {
  return {
    title: feature.title,
    description: issueBody(feature.description, feature.place),
    labels: labels.join(','),
    milestone_id: milestoneId ?? 0,
  }
}

export type GitlabIssueState = 'opened' | 'closed'

/** The `state_event` that brings an issue to a feature's status, or null when it is there. */
export function stateEventFor(
  status: TrackerFeature['status'],
  state: GitlabIssueState,
): 'close' | 'reopen' | null {
  if (status === 'CLOSED') return state === 'closed' ? null : 'close'
  return state === 'closed' ? 'reopen' : null
}

/** `#12`: how the board names a GitLab issue. */
export const gitlabIssueKey = (iid: number) => `#${iid}`

type LabelLike = string | { name?: string | null; title?: string | null }
export type GitlabIssueLike = {
  state: string
  title: string
  description?: string | null
  labels?: readonly LabelLike[]
  moved_to_id?: number | string | null
}

/** What an issue says about its feature; an issue moved to another project is `missing`. */
export function featureFromGitlabIssue(issue: GitlabIssueLike): FeatureFromIssue {
  return {
    status: issue.state === 'closed' ? 'CLOSED' : 'OPEN',
    title: titleOfIssue(issue.title),
    description: descriptionOfBody(issue.description),
    labels: (issue.labels ?? [])
      .map((l) => (typeof l === 'string' ? l : (l.name ?? l.title ?? '')))
      .filter((n) => n !== ''),
    missing: issue.moved_to_id !== undefined && issue.moved_to_id !== null,
  }
}

/** An `Issue Hook` body: the project, the issue and what it says, or null when it is not one. */
export function readIssueHook(body: unknown) {
  const hook = body as {
    object_kind?: string
    project?: { id?: number; path_with_namespace?: string }
    object_attributes?: GitlabIssueLike & { iid?: number; action?: string; updated_at?: string }
    labels?: LabelLike[]
  } | null
  const issue = hook?.object_attributes
  if (hook?.object_kind !== 'issue' || !issue || typeof issue.iid !== 'number') return null
  return {
    projectId: hook.project?.id ?? null,
    projectPath: hook.project?.path_with_namespace ?? null,
    iid: issue.iid,
    action: issue.action ?? null,
    updatedAt: issue.updated_at ?? null,
    feature: featureFromGitlabIssue({ ...issue, labels: hook.labels ?? issue.labels ?? [] }),
  }
}

/**
 * Until when a GitLab answer says to wait (ms since the epoch), or null when it is no rate limit:
 * a 429 with `Retry-After`, else `RateLimit-Reset` (Unix seconds), else a minute.
 */
export function gitlabRateLimitUntil(
  status: number,
  headers: Record<string, string | undefined>,
  now: number,
) {
  if (status !== 429) return null
  const after = retryAfterAt(headers['retry-after'], now)
  if (after !== null) return after
  const reset = Number(headers['ratelimit-reset'])
  if (headers['ratelimit-reset'] !== undefined && Number.isFinite(reset))
    return Math.max(now + 1000, reset * 1000)
  return now + 60_000
}
