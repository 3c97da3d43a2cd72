import crypto from 'node:crypto'
import { GitbeakerRequestError } from '@gitbeaker/requester-utils'
import { issueBody } from '../connector/issue-rules'
import {
  TrackerFailure,
  type Connection,
  type RemoteIssue,
  type TrackerProvider,
} from '../connector/provider'
import { oneRequestRequester } from './gitlab-requester'
import {
  accessLevelOf,
  featureFromGitlabIssue,
  gitlabIssueKey,
  gitlabRateLimitUntil,
  labelsForTags,
  milestoneFor,
  readIssueHook,
  REPORTER,
  stateEventFor,
  type GitlabIssueLike,
} from './gitlab-mapping'

/**
 * GitLab through `@gitbeaker/rest` (CONTRACT §14): gitlab.com or a self-managed GitLab at any
 * URL, a path prefix too. One request per call (gitlab-requester.ts), so a 429's `Retry-After`
 * or `RateLimit-Reset` reaches the connector.
 */

// Loaded on first use (ADR 23): only a GitLab link needs it.
const api = async (url: string, token: string) => {
  const { Gitlab } = await import('@gitbeaker/rest')
  return new Gitlab({ host: url.replace(/\/+$/, ''), token, requesterFn: oneRequestRequester })
}

/** Any error of a call as the connector's failure. */
export function gitlabFailure(error: unknown): TrackerFailure {
  if (error instanceof TrackerFailure) return error
  if (error instanceof GitbeakerRequestError && error.cause?.response) {
    const response = error.cause.response as Response
    const status = response.status
    const headers = Object.fromEntries(response.headers.entries())
    const message = error.cause.description || error.message
    const until = gitlabRateLimitUntil(status, headers, Date.now())
    if (until !== null) return new TrackerFailure('rate_limited', message || 'rate limited', until)
    if (status === 401) return new TrackerFailure('token_invalid', message)
    if (status === 404 || status === 410) return new TrackerFailure('missing', message)
    if (status === 403) return new TrackerFailure('permission_missing', message)
    if (status >= 500) return new TrackerFailure('unreachable', message)
    return new TrackerFailure('unreachable', `GitLab answered ${status}: ${message}`)
  }
  return new TrackerFailure('unreachable', error instanceof Error ? error.message : String(error))
}

async function call<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (error) {
    throw gitlabFailure(error)
  }
}

type ApiIssue = GitlabIssueLike & { iid: number; web_url: string; updated_at: string }

const remote = (issue: ApiIssue): RemoteIssue => {
  const said = featureFromGitlabIssue(issue)
  return {
    id: String(issue.iid),
    key: gitlabIssueKey(issue.iid),
    url: issue.web_url,
    title: said.title,
    description: said.description,
    labels: said.labels,
    state: said.status === 'CLOSED' ? 'closed' : 'open',
    status: null,
    updatedAt: issue.updated_at,
    missing: said.missing,
  }
}

async function issueFields(conn: Connection, feature: Parameters<TrackerProvider['create']>[1]) {
  const gl = await api(conn.url, conn.token)
  const existing = await call(() => gl.ProjectLabels.all(conn.project))
  const { names, missing } = labelsForTags(feature.tags, existing as { name: string }[])
  for (const label of missing)
    await call(() => gl.ProjectLabels.create(conn.project, label.name, label.color))
  const milestones = await call(() => gl.ProjectMilestones.all(conn.project, { title: feature.release }))
  let milestoneId = milestoneFor(feature.release, milestones as { id: number; title: string }[])
  if (milestoneId === null)
    milestoneId = (await call(() => gl.ProjectMilestones.create(conn.project, feature.release))).id as number
  return {
    description: issueBody(feature.description, feature.place),
    labels: names.join(','),
    milestoneId,
  }
}

export const gitlabProvider: TrackerProvider = {
  async check({ url, project, token }) {
    const gl = await api(url, token)
    let found
    try {
      found = await gl.Projects.show(project)
    } catch (error) {
      const failure = gitlabFailure(error)
      if (failure.kind === 'missing') throw new TrackerFailure('project_invalid', failure.message)
      throw failure
    }
    if (accessLevelOf(found) < REPORTER)
      throw new TrackerFailure(
        'permission_missing',
        'The token may not create and edit issues of this project.',
      )
    let tokenExpiresAt: string | null = null
    try {
      const self = await gl.PersonalAccessTokens.show()
      tokenExpiresAt = (self as { expires_at?: string | null }).expires_at ?? null
    } catch {
      // Not every token may read itself (GitLab before 16.0, some group tokens): no expiry known.
    }
    return {
      project: found.path_with_namespace as string,
      settings: { projectId: found.id },
      tokenExpiresAt,
    }
  },

  async create(conn, feature) {
    const fields = await issueFields(conn, feature)
    const gl = await api(conn.url, conn.token)
    let issue = (await call(() =>
      gl.Issues.create(conn.project, feature.title, fields),
    )) as unknown as ApiIssue
    if (feature.status === 'CLOSED')
      issue = (await call(() =>
        gl.Issues.edit(conn.project, issue.iid, { stateEvent: 'close' }),
      )) as unknown as ApiIssue
    return remote(issue)
  },

  async update(conn, issueId, feature) {
    const gl = await api(conn.url, conn.token)
    const iid = Number(issueId)
    const current = (await call(() =>
      gl.Issues.show(iid, { projectId: conn.project }),
    )) as unknown as ApiIssue
    const fields = await issueFields(conn, feature)
    const stateEvent = stateEventFor(feature.status, current.state === 'closed' ? 'closed' : 'opened')
    const issue = await call(() =>
      gl.Issues.edit(conn.project, iid, {
        title: feature.title,
        ...fields,
        ...(stateEvent ? { stateEvent } : {}),
      }),
    )
    return remote(issue as unknown as ApiIssue)
  },

  async changedSince(conn, since) {
    const gl = await api(conn.url, conn.token)
    const issues = await call(() =>
      gl.Issues.all({
        projectId: conn.project,
        ...(since ? { updatedAfter: since } : {}),
        orderBy: 'updated_at',
        sort: 'asc',
        perPage: 100,
      }),
    )
    return (issues as unknown as ApiIssue[]).map(remote)
  },

  async read(conn, ids) {
    const gl = await api(conn.url, conn.token)
    const found: RemoteIssue[] = []
    for (let i = 0; i < ids.length; i += 100) {
      const iids = ids.slice(i, i + 100).map(Number)
      const page = await call(() => gl.Issues.all({ projectId: conn.project, iids, perPage: 100 }))
      found.push(...(page as unknown as ApiIssue[]).map(remote))
    }
    return found
  },

  async list(conn, filter) {
    const gl = await api(conn.url, conn.token)
    const issues = await call(() =>
      gl.Issues.all({
        projectId: conn.project,
        ...(filter.state === 'open' ? { state: 'opened' } : {}),
        ...(filter.labels?.length ? { labels: filter.labels.join(',') } : {}),
        orderBy: 'created_at',
        sort: 'asc',
        perPage: 100,
      }),
    )
    return (issues as unknown as ApiIssue[]).map(remote).sort((a, b) => Number(a.id) - Number(b.id))
  },

  verify(headers, _body, secret) {
    const given = Buffer.from(headers.get('x-gitlab-token') ?? '')
    const wanted = Buffer.from(secret)
    return given.length === wanted.length && crypto.timingSafeEqual(given, wanted)
  },

  hookIssues(body) {
    const hook = readIssueHook(body)
    return hook ? [{ id: String(hook.iid), key: null, deleted: false }] : []
  },
}
