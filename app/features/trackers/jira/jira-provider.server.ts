import crypto from 'node:crypto'
import type { CloudClient } from 'jira.js'
import { ApiError, AuthError, ForbiddenError, NotFoundError, RateLimitError } from 'jira.js/core'
import {
  TrackerFailure,
  type Connection,
  type PushedFeature,
  type RemoteIssue,
  type TrackerProvider,
} from '../connector/provider'
import {
  featureFromJiraIssue,
  fixVersionFor,
  issueTypeFor,
  jiraCreateFields,
  jiraEditFields,
  jiraLabel,
  missingPermissions,
  openIssuesJql,
  readJiraWebhook,
  REQUIRED_PERMISSIONS,
  storyPointsFieldOf,
  SYNC_FIELDS,
  transitionFor,
  updatedSinceJql,
  type JiraIssueLike,
} from './jira-mapping'

/**
 * Jira Cloud through `jira.js` (REST API v3, Basic auth with e-mail and API token; CONTRACT §14).
 * The link keeps what the check found: the e-mail, the issue type, the story-point field, the
 * project id and the account's time zone (JQL reads dates in it).
 */

type Settings = {
  email: string
  issueTypeId: string
  storyPointsField: string | null
  projectId: string
  timeZone: string
}

// Loaded on first use (ADR 23): jira.js is most of the server's code, and only a Jira link needs it.
const client = async (url: string, email: string, token: string): Promise<CloudClient> => {
  const { createCloudClient } = await import('jira.js')
  return createCloudClient({ host: url, auth: { type: 'basic', email, apiToken: token } })
}

const clientOf = (conn: Connection) => client(conn.url, (conn.settings as Settings).email, conn.token)

export function jiraFailure(error: unknown): TrackerFailure {
  if (error instanceof TrackerFailure) return error
  const message = error instanceof Error ? error.message : String(error)
  if (error instanceof RateLimitError)
    return new TrackerFailure('rate_limited', message, Date.now() + (error.retryAfterMs ?? 60_000))
  if (error instanceof AuthError) return new TrackerFailure('token_invalid', message)
  if (error instanceof NotFoundError) return new TrackerFailure('missing', message)
  if (error instanceof ForbiddenError) return new TrackerFailure('permission_missing', message)
  if (error instanceof ApiError) {
    const status = (error as unknown as { status?: number }).status ?? 0
    if (status === 429) return new TrackerFailure('rate_limited', message, Date.now() + 60_000)
    if (status >= 500 || status === 0) return new TrackerFailure('unreachable', message)
    return new TrackerFailure('permission_missing', `Jira answered ${status}: ${message}`)
  }
  return new TrackerFailure('unreachable', message)
}

async function call<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (error) {
    throw jiraFailure(error)
  }
}

const remote = (conn: Connection, issue: JiraIssueLike & { id?: string }): RemoteIssue => {
  const said = featureFromJiraIssue(issue)
  const updated = String(issue.fields?.updated ?? new Date().toISOString())
  return {
    id: String(issue.id),
    key: issue.key ?? '',
    url: `${conn.url}/browse/${issue.key}`,
    title: said.title,
    description: said.description,
    labels: said.labels,
    state: said.status === 'CLOSED' ? 'closed' : 'open',
    status: said.statusName,
    updatedAt: new Date(Date.parse(updated.replace(/([+-]\d\d)(\d\d)$/, '$1:$2'))).toISOString(),
    // An issue moved to another project keeps answering under its old key, with the new one.
    missing: said.missing || !(issue.key ?? '').startsWith(`${conn.project}-`),
  }
}

async function fixVersionId(jira: CloudClient, conn: Connection, release: string) {
  const versions = await call(() => jira.projectVersions.getProjectVersions({ projectIdOrKey: conn.project }))
  const found = fixVersionFor(release, versions)
  if (found) return found
  const made = await call(() =>
    jira.projectVersions.createVersion({
      name: release,
      projectId: Number((conn.settings as Settings).projectId),
    }),
  )
  return made.id ?? null
}

async function transitionTo(
  jira: CloudClient,
  key: string,
  status: PushedFeature['status'],
  category: string | undefined,
) {
  const { transitions = [] } = await call(() => jira.issues.getTransitions({ issueIdOrKey: key }))
  const choice = transitionFor(status, category, transitions)
  if (choice.action === 'missing')
    throw new TrackerFailure('transition_missing', `No transition of ${key} leads to the feature's status.`)
  if (choice.action === 'transition')
    await call(() => jira.issues.doTransition({ issueIdOrKey: key, transition: { id: choice.id } }))
}

async function readOne(jira: CloudClient, conn: Connection, key: string) {
  const issue = await call(() => jira.issues.getIssue({ issueIdOrKey: key, fields: SYNC_FIELDS }))
  return remote(conn, issue as JiraIssueLike & { id?: string })
}

async function search(conn: Connection, jql: string): Promise<RemoteIssue[]> {
  const jira = await clientOf(conn)
  const found: RemoteIssue[] = []
  let nextPageToken: string | undefined
  do {
    const token = nextPageToken
    const page = await call(() =>
      jira.issueSearch.searchAndReconsileIssuesUsingJqlPost({
        jql,
        fields: SYNC_FIELDS,
        maxResults: 100,
        nextPageToken: token,
      }),
    )
    found.push(...(page.issues ?? []).map((i) => remote(conn, i as JiraIssueLike & { id?: string })))
    nextPageToken = page.nextPageToken ?? undefined
  } while (nextPageToken)
  return found
}

export const jiraProvider: TrackerProvider = {
  async check({ url, project, token, email }) {
    const jira = await client(url, email ?? '', token)
    const me = await call(() => jira.myself.getCurrentUser())
    let found
    try {
      found = await jira.projects.getProject({ projectIdOrKey: project })
    } catch (error) {
      const failure = jiraFailure(error)
      throw failure.kind === 'missing' ? new TrackerFailure('project_invalid', failure.message) : failure
    }
    const mine = await call(() =>
      jira.permissions.getMyPermissions({
        projectKey: found.key ?? project,
        permissions: REQUIRED_PERMISSIONS.join(','),
      }),
    )
    const missing = missingPermissions(mine)
    if (missing.length > 0)
      throw new TrackerFailure(
        'permission_missing',
        `The account lacks ${missing.join(', ')} in this project.`,
      )
    const type = issueTypeFor(found.issueTypes ?? [])
    if (!type)
      throw new TrackerFailure('permission_missing', 'The project has neither a Story nor a Task issue type.')
    const fields = await call(() => jira.issueFields.getFields())
    const settings: Settings = {
      email: email ?? '',
      issueTypeId: type.id,
      storyPointsField: storyPointsFieldOf(fields),
      projectId: String(found.id),
      timeZone: me.timeZone ?? 'UTC',
    }
    return { project: found.key ?? project, settings, tokenExpiresAt: null }
  },

  async create(conn, feature) {
    const jira = await clientOf(conn)
    const settings = conn.settings as Settings
    const fields = jiraCreateFields(feature, {
      projectKey: conn.project,
      issueTypeId: settings.issueTypeId,
      storyPointsField: settings.storyPointsField,
      fixVersionId: await fixVersionId(jira, conn, feature.release),
    })
    const made = await call(() => jira.issues.createIssue({ fields: fields as never }))
    if (feature.status === 'CLOSED') await transitionTo(jira, made.key!, 'CLOSED', 'new')
    return readOne(jira, conn, made.key!)
  },

  async update(conn, issueId, feature) {
    const jira = await clientOf(conn)
    const settings = conn.settings as Settings
    const fields = jiraEditFields(feature, {
      storyPointsField: settings.storyPointsField,
      fixVersionId: await fixVersionId(jira, conn, feature.release),
    })
    await call(() => jira.issues.editIssue({ issueIdOrKey: issueId, fields: fields as never }))
    const current = await call(() => jira.issues.getIssue({ issueIdOrKey: issueId, fields: ['status'] }))
    const category = (current as JiraIssueLike).fields?.status?.statusCategory?.key
    await transitionTo(jira, issueId, feature.status, category)
    return readOne(jira, conn, issueId)
  },

  changedSince(conn, since) {
    const settings = conn.settings as Settings
    const jql = since
      ? updatedSinceJql(conn.project, since, settings.timeZone)
      : `project = "${conn.project}" ORDER BY updated ASC`
    return search(conn, jql)
  },

  async read(conn, ids) {
    const jira = await clientOf(conn)
    const found: RemoteIssue[] = []
    for (const id of ids) {
      try {
        found.push(await readOne(jira, conn, id))
      } catch (error) {
        if (!(error instanceof TrackerFailure) || error.kind !== 'missing') throw error
      }
    }
    return found
  },

  async list(conn, filter) {
    let jql =
      filter.state === 'open' ? openIssuesJql(conn.project) : `project = "${conn.project}" ORDER BY key ASC`
    if (filter.labels?.length) {
      const labels = filter.labels.map((l) => `"${jiraLabel(l).replaceAll('"', '')}"`).join(', ')
      jql = jql.replace(' ORDER BY', ` AND labels in (${labels}) ORDER BY`)
    }
    const issues = await search(conn, jql)
    return issues.sort((a, b) => Number(a.key.split('-')[1]) - Number(b.key.split('-')[1]))
  },

  verify(headers, body, secret) {
    const given = headers.get('x-hub-signature') ?? ''
    const wanted = `sha256=${crypto.createHmac('sha256', secret).update(body).digest('hex')}`
    const a = Buffer.from(given)
    const b = Buffer.from(wanted)
    return a.length === b.length && crypto.timingSafeEqual(a, b)
  },

  hookIssues(body) {
    const hook = readJiraWebhook(body)
    return hook ? [{ id: hook.id, key: hook.key, deleted: hook.deleted }] : []
  },
}
