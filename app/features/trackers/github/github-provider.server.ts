import type { Octokit } from '@octokit/rest'
import { verify as verifySignature } from '@octokit/webhooks-methods'
import { logger } from '~/lib/logger.server'
import { singleton } from '~/lib/singleton.server'
import { APP_VERSION } from '~/lib/version'
import { labelColor } from '../connector/issue-rules'
import {
  TrackerFailure,
  type Connection,
  type PushedFeature,
  type PushedField,
  type RemoteIssue,
  type TrackerProvider,
} from '../connector/provider'
import {
  classifyFailure,
  githubFields,
  githubHookIssues,
  isIssue,
  remoteOfGithub,
  splitRepository,
  type GithubIssue,
} from './github-mapping'

/**
 * GitHub through the official Octokit (CONTRACT §13, ADR 38), at GITHUB_API_URL (the link's
 * connection carries it). Octokit's own retries and throttling are not in @octokit/rest: the
 * connector's outbox and poller wait and retry by themselves, from the rate-limit headers, so a
 * user's request never hangs on GitHub. Polls are conditional (`If-None-Match`, the ETag kept in
 * memory per link and query), so an unchanged repository costs no rate limit.
 */
export const CALL_TIMEOUT_MS = 15_000

const quiet = {
  debug: () => {},
  info: () => {},
  warn: (message: string) => logger.warn({ github: message }, 'github client'),
  error: () => {},
}

// Loaded on first use (ADR 23): only a GitHub link needs it.
const octokitOf = async (conn: Pick<Connection, 'url' | 'token'>) => {
  const { Octokit } = await import('@octokit/rest')
  return new Octokit({
    auth: conn.token,
    baseUrl: conn.url,
    userAgent: `Storymap/${APP_VERSION}`,
    log: quiet,
  })
}

/** Request options for one call: a time limit, so a hanging GitHub is a failure like any other. */
const request = () => ({ signal: AbortSignal.timeout(CALL_TIMEOUT_MS) })

type OctokitError = {
  status?: number
  message?: string
  response?: { status: number; headers: Record<string, string>; data?: unknown }
}

/** Any error of a GitHub call as the connector's failure (a 304 is not one: check `status` first). */
export function githubFailure(error: unknown, now = Date.now()): TrackerFailure {
  if (error instanceof TrackerFailure) return error
  const e = error as OctokitError
  const status = e.response?.status ?? null
  const data = e.response?.data as { message?: string } | undefined
  const message = data?.message ?? e.message ?? 'GitHub did not answer.'
  const failure = classifyFailure(status, e.response?.headers ?? {}, message, now)
  return new TrackerFailure(failure.kind, failure.message, failure.retryAt ?? null)
}

async function call<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (error) {
    throw githubFailure(error)
  }
}

/** Makes the labels a feature's tags need that the repository lacks (names compared ignoring case), in the tag's colour. */
async function ensureLabels(
  octokit: Octokit,
  repository: string,
  wanted: readonly { name: string; color: string }[],
) {
  if (wanted.length === 0) return
  const { owner, repo } = splitRepository(repository)
  const labels = await call(() =>
    octokit.paginate(octokit.rest.issues.listLabelsForRepo, {
      owner,
      repo,
      per_page: 100,
      request: request(),
    }),
  )
  const have = new Set(labels.map((l) => l.name.toLowerCase()))
  for (const tag of wanted) {
    if (have.has(tag.name.toLowerCase())) continue
    try {
      await octokit.rest.issues.createLabel({
        owner,
        repo,
        name: tag.name,
        color: labelColor(tag.color),
        request: request(),
      })
    } catch (error) {
      // 422: made meanwhile (another push, or a name GitHub folds the same way).
      if ((error as OctokitError).status !== 422) throw githubFailure(error)
    }
    have.add(tag.name.toLowerCase())
  }
}

/** The last conditional poll per link and query: `since` and the ETag GitHub gave for it. */
const etags = () => singleton('github-etags', () => new Map<string, { since: string | null; etag: string }>())
const etagKey = (conn: Connection) => `${conn.url} ${conn.project.toLowerCase()}`

/** Every page of a listing of the repository's issues (pull requests left out); 'unchanged' on a 304. */
async function listIssues(
  conn: Connection,
  params: Record<string, string>,
  etag: string | null = null,
): Promise<{ issues: GithubIssue[]; etag: string | null } | 'unchanged'> {
  const octokit = await octokitOf(conn)
  const { owner, repo } = splitRepository(conn.project)
  let first
  try {
    first = await octokit.rest.issues.listForRepo({
      owner,
      repo,
      per_page: 100,
      ...params,
      headers: etag ? { 'if-none-match': etag } : {},
      request: request(),
    })
  } catch (error) {
    if ((error as OctokitError).status === 304) return 'unchanged'
    throw githubFailure(error)
  }
  const issues = [...(first.data as GithubIssue[])]
  let next = nextPage(first.headers.link)
  while (next) {
    const url = next
    const res = await call(() => octokit.request({ method: 'GET', url, request: request() }))
    issues.push(...(res.data as GithubIssue[]))
    next = nextPage(res.headers.link)
  }
  return { issues: issues.filter(isIssue), etag: first.headers.etag ?? null }
}

/** The `rel="next"` address of a Link header, or null. */
function nextPage(link: string | undefined): string | null {
  const match = link
    ?.split(',')
    .map((part) => /<([^>]+)>;\s*rel="next"/.exec(part))
    .find(Boolean)
  return match ? match[1] : null
}

async function update(
  conn: Connection,
  issueId: string,
  feature: PushedFeature,
  fields: readonly PushedField[],
): Promise<RemoteIssue> {
  const octokit = await octokitOf(conn)
  const { owner, repo } = splitRepository(conn.project)
  const wanted = githubFields(feature)
  const has = (field: PushedField) => fields.includes(field)
  if (has('labels')) await ensureLabels(octokit, conn.project, feature.tags)
  const { data } = await call(() =>
    octokit.rest.issues.update({
      owner,
      repo,
      issue_number: Number(issueId),
      ...(has('title') ? { title: wanted.title } : {}),
      ...(has('body') ? { body: wanted.body } : {}),
      ...(has('state') ? { state: wanted.state } : {}),
      ...(has('labels') ? { labels: wanted.labels } : {}),
      request: request(),
    }),
  )
  return remoteOfGithub(data as GithubIssue)
}

export const githubProvider: TrackerProvider = {
  async check({ url, project, token }) {
    const { owner, repo } = splitRepository(project)
    let data
    try {
      data = (await (await octokitOf({ url, token })).rest.repos.get({ owner, repo, request: request() }))
        .data
    } catch (error) {
      const failure = githubFailure(error)
      // An unknown or unreadable repository, or one GitHub refuses to show: the repository is invalid.
      if (failure.kind === 'missing' || failure.kind === 'permission_missing' || failure.kind === 'rejected')
        throw new TrackerFailure('project_invalid', failure.message)
      throw failure
    }
    if (!data.permissions?.push)
      throw new TrackerFailure(
        'permission_missing',
        'The token may not write issues of this repository (Issues: read and write is needed).',
      )
    return { project: data.full_name, settings: {}, tokenExpiresAt: null }
  },

  async create(conn, feature) {
    const octokit = await octokitOf(conn)
    const { owner, repo } = splitRepository(conn.project)
    const fields = githubFields(feature)
    await ensureLabels(octokit, conn.project, feature.tags)
    const { data } = await call(() =>
      octokit.rest.issues.create({
        owner,
        repo,
        title: fields.title,
        body: fields.body,
        labels: fields.labels,
        request: request(),
      }),
    )
    const issue = remoteOfGithub(data as GithubIssue)
    return fields.state === 'closed' ? update(conn, issue.id, feature, ['state']) : issue
  },

  update,

  async changedSince(conn, since) {
    const key = etagKey(conn)
    const known = etags().get(key)
    const params: Record<string, string> = { state: 'all', sort: 'updated', direction: 'asc' }
    if (since) params.since = since
    const listed = await listIssues(conn, params, known && known.since === since ? known.etag : null)
    if (listed === 'unchanged') return []
    if (listed.etag) etags().set(key, { since, etag: listed.etag })
    else etags().delete(key)
    return listed.issues.map(remoteOfGithub)
  },

  async read(conn, ids) {
    // One listing of every issue instead of a call per issue; one no longer there is missing.
    const listed = await listIssues(conn, { state: 'all', sort: 'updated', direction: 'asc' })
    if (listed === 'unchanged') return []
    const wanted = new Set(ids)
    return listed.issues.map(remoteOfGithub).filter((i) => wanted.has(i.id))
  },

  async list(conn, filter) {
    const listed = await listIssues(conn, {
      state: filter.state,
      ...(filter.labels && filter.labels.length > 0 ? { labels: filter.labels.join(',') } : {}),
    })
    if (listed === 'unchanged') return []
    return listed.issues.sort((a, b) => a.number - b.number).map(remoteOfGithub)
  },

  async verify(headers, body, secret) {
    const signature = headers.get('x-hub-signature-256') ?? ''
    if (!signature || !body) return false
    try {
      return await verifySignature(secret, body, signature)
    } catch {
      return false
    }
  },

  hookIssues(body, headers) {
    return githubHookIssues(headers.get('x-github-event'), body)
  },
}
