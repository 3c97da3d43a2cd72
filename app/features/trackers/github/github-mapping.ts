import { descriptionOfBody, issueBody, titleOfIssue, type FeaturePlace } from '../connector/issue-rules'
import type { FailureKind, RemoteIssue } from '../connector/provider'

/**
 * GitHub's mapping (CONTRACT §13, ADR 26, ADR 38). Pure: a GitHub issue as the connector's
 * RemoteIssue and back, the repository's name, the webhook body, and what an answer of GitHub's
 * REST API means (rate limits from `retry-after` / `x-ratelimit-reset`).
 */

/** `owner/name` as GitHub allows it. */
export const REPOSITORY_PATTERN = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})\/[A-Za-z0-9._-]{1,100}$/

export function splitRepository(repository: string): { owner: string; repo: string } {
  const [owner, repo] = repository.split('/')
  return { owner, repo }
}

/** An issue as GitHub's REST API and its webhooks send it (the fields the sync reads). */
export type GithubIssue = {
  number: number
  title: string
  body?: string | null
  state: string
  labels?: (string | { name?: string | null })[]
  updated_at: string
  html_url: string
  pull_request?: unknown
}

/** Label names from an issue (strings or objects, as GitHub sends either). */
export function labelNames(labels: readonly (string | { name?: string | null })[] | undefined): string[] {
  return (labels ?? []).map((l) => (typeof l === 'string' ? l : (l.name ?? ''))).filter((n) => n !== '')
}

/** Pull requests are not issues (CONTRACT §13). */
export const isIssue = (issue: GithubIssue) => !issue.pull_request

/** A GitHub issue in the connector's terms: its number is its id, `#12` its key. */
export function remoteOfGithub(issue: GithubIssue): RemoteIssue {
  return {
    id: String(issue.number),
    key: `#${issue.number}`,
    url: issue.html_url,
    title: titleOfIssue(issue.title),
    description: descriptionOfBody(issue.body),
    labels: labelNames(issue.labels),
    state: issue.state === 'closed' ? 'closed' : 'open',
    status: null,
    updatedAt: issue.updated_at,
    missing: false,
  }
}

/** The issue's title, body, labels and state for a feature. */
export function githubFields(feature: {
  title: string
  description: string
  status: 'OPEN' | 'CLOSED'
  tags: readonly { name: string }[]
  place: FeaturePlace
}) {
  return {
    title: feature.title,
    body: issueBody(feature.description, feature.place),
    labels: feature.tags.map((t) => t.name),
    state: feature.status === 'CLOSED' ? ('closed' as const) : ('open' as const),
  }
}

/** The issues an `issues` webhook delivery names (`ping` and other events name none). */
export function githubHookIssues(event: string | null, payload: unknown) {
  if (event !== 'issues' || typeof payload !== 'object' || payload === null) return []
  const { action, issue, repository } = payload as {
    action?: string
    issue?: GithubIssue
    repository?: { full_name?: string }
  }
  if (!issue || typeof issue.number !== 'number' || !isIssue(issue)) return []
  return [
    {
      id: String(issue.number),
      key: `#${issue.number}`,
      deleted: action === 'deleted' || action === 'transferred',
      project: repository?.full_name ?? null,
      issue: remoteOfGithub(issue),
    },
  ]
}

/** The repository's page on the web: github.com, or the GitHub Enterprise Server that GITHUB_API_URL names (`https://HOST/api/v3`). */
export function repositoryWebUrl(apiUrl: string, repository: string): string {
  const web = apiUrl === 'https://api.github.com' ? 'https://github.com' : apiUrl.replace(/\/api\/v3$/, '')
  return `${web}/${repository}`
}

/** A failed call in the connector's terms. */
export type GithubFailureKind = Exclude<FailureKind, 'project_invalid' | 'transition_missing'>
export type SyncFailure = { kind: GithubFailureKind; message: string; retryAt?: number }

/** A 403 or 429 that is GitHub's rate limit (primary or secondary): until when to wait, or null. */
export function rateLimitUntil(
  status: number,
  headers: Record<string, string | undefined>,
  now: number,
): number | null {
  if (status !== 403 && status !== 429) return null
  const retryAfter = Number(headers['retry-after'])
  if (headers['retry-after'] !== undefined && Number.isFinite(retryAfter))
    return now + Math.max(1, retryAfter) * 1000
  if (headers['x-ratelimit-remaining'] === '0') {
    const reset = Number(headers['x-ratelimit-reset'])
    if (Number.isFinite(reset)) return Math.max(now + 1000, reset * 1000)
  }
  // A 429 without either header: GitHub's advice is to wait at least a minute.
  return status === 429 ? now + 60_000 : null
}

/** What an answer means: its HTTP status (null: no answer came) and headers in, the failure out. */
export function classifyFailure(
  status: number | null,
  headers: Record<string, string | undefined>,
  message: string,
  now: number,
): SyncFailure {
  if (status === null || status >= 500)
    return { kind: 'unreachable', message: message || 'GitHub did not answer.' }
  const until = rateLimitUntil(status, headers, now)
  if (until !== null)
    return { kind: 'rate_limited', message: message || 'GitHub rate limit reached.', retryAt: until }
  if (status === 401) return { kind: 'token_invalid', message }
  if (status === 404 || status === 410) return { kind: 'missing', message }
  if (status === 403) return { kind: 'permission_missing', message }
  return { kind: 'rejected', message }
}
