import type { FaultMatch } from './fake-service'
import { JiraApi } from './fake-jira-api'
import {
  issueJson,
  versionJson,
  type Category,
  type JiraStatus,
  type JiraTransitionDef,
} from './fake-jira-shapes'
import { ALL_PERMISSIONS, statusOf } from './fake-jira-rules'

/**
 * A local stand-in for Jira Cloud's REST API v3 (the part CONTRACT §14 uses), reached by the real
 * `jira.js` client with `host` = `url`; the API itself is in fake-jira-api.ts. This is what tests
 * set up (accounts with a time zone and project permissions, projects, the story-point field, the
 * workflow, admin webhooks, failures) and what a person does "in Jira" (`edit`, `remove`,
 * `moveAway`): every change is posted to the webhooks, signed with `X-Hub-Signature`.
 */

export class FakeJira extends JiraApi {
  // ---- set-up

  /** An account (`email` + API token) in a time zone, with every project permission unless some are named. */
  addUser(
    email: string,
    token: string,
    options: { timeZone?: string; displayName?: string; permissions?: Record<string, string[]> } = {},
  ) {
    const permissions = new Map<string, Set<string>>()
    for (const key of this.site.projects.keys())
      permissions.set(key, new Set(options.permissions?.[key] ?? ALL_PERMISSIONS))
    for (const [key, list] of Object.entries(options.permissions ?? {})) permissions.set(key, new Set(list))
    const user = {
      accountId: `5b10ac8d82e05b22cc7d${this.ids++}`,
      email,
      token,
      displayName: options.displayName ?? 'Ada Lovelace',
      timeZone: options.timeZone ?? 'UTC',
      permissions,
    }
    this.users.set(email, user)
    return user
  }

  /** A project (before its users) with issue types (Story, Task, Bug, Sub-task unless named). */
  addProject(key: string, options: { name?: string; issueTypes?: string[] } = {}) {
    const types = (options.issueTypes ?? ['Story', 'Task', 'Bug', 'Sub-task']).map((name) => ({
      id: String(this.ids++),
      name,
      subtask: name === 'Sub-task',
    }))
    this.site.projects.set(key, {
      id: String(this.ids++),
      key,
      name: options.name ?? key,
      issueTypes: types,
      next: 1,
    })
  }

  /** The site's story-point field: its name (`Story point estimate`, `Story Points`…), or none. */
  setStoryPointsField(name: string | null) {
    this.site.storyPointsField =
      name === null ? null : { id: name === 'Story Points' ? 'customfield_10028' : 'customfield_10016', name }
  }

  /** The statuses and the (global) transitions to them. */
  setWorkflow(statuses: JiraStatus[], transitions: JiraTransitionDef[]) {
    this.site.statuses = statuses
    this.transitions = transitions
  }

  /** Takes away every transition to a status of this category (e.g. no way to `done`). */
  removeTransitionsTo(category: Category) {
    this.transitions = this.transitions.filter((t) => statusOf(this.site, t.to).category !== category)
  }

  /** An admin webhook with a secret, for these events. */
  addWebhook(
    url: string,
    secret: string,
    events = ['jira:issue_created', 'jira:issue_updated', 'jira:issue_deleted'],
  ) {
    this.hooks.push({ url, secret, events })
  }

  /** The next calls whose path matches answer 429 with `Retry-After` (seconds). */
  rateLimitNext(path: RegExp, how: { retryAfter: number }, match: FaultMatch = {}) {
    this.rateLimit(
      path,
      {
        'Retry-After': String(how.retryAfter),
        'X-RateLimit-Limit': '350',
        'X-RateLimit-Remaining': '0',
        'RateLimit-Reason': 'jira-quota-tenant-based',
      },
      match,
    )
  }

  /** An issue made without any webhook (the state a test starts from). */
  seedIssue(
    projectKey: string,
    fields: {
      summary: string
      description?: unknown
      labels?: string[]
      status?: string
      storyPoints?: number | null
    },
  ) {
    const project = this.site.projects.get(projectKey)!
    const issue = this.makeIssue(project.key, {
      summary: fields.summary,
      description: fields.description ?? null,
      labels: fields.labels ?? [],
      issueTypeId: project.issueTypes[0].id,
    })
    if (fields.status) issue.statusId = this.statusNamed(fields.status).id
    if (fields.storyPoints !== undefined) issue.storyPoints = fields.storyPoints
    return this.issue(issue.key)!
  }

  // ---- "in Jira": what a person does there (each posts the webhooks, awaited)

  async edit(
    key: string,
    changes: {
      summary?: string
      description?: unknown
      labels?: string[]
      status?: string
      storyPoints?: number | null
    },
  ) {
    const issue = this.issuesByKey.get(key)!
    const { status, storyPoints, ...rest } = changes
    this.change(
      issue,
      {
        ...rest,
        ...(status ? { statusId: this.statusNamed(status).id } : {}),
        ...(storyPoints !== undefined ? { storyPoints } : {}),
      },
      this.admin(),
    )
    await this.settled()
    return this.issue(issue.key)!
  }

  async remove(key: string) {
    this.removeIssue(this.issuesByKey.get(key)!, this.admin())
    await this.settled()
  }

  /** The issue moves to another project: a new key, the old one still leads to it. */
  moveAway(key: string, toProjectKey: string) {
    const issue = this.issuesByKey.get(key)!
    const project = this.site.projects.get(toProjectKey)!
    issue.projectKey = project.key
    issue.key = `${project.key}-${project.next++}`
    issue.issueTypeId = project.issueTypes[0].id
    issue.fixVersions = []
    issue.updated = this.now()
    this.issuesByKey.set(issue.key, issue)
    return issue.key
  }

  // ---- reading the state

  issue(key: string) {
    const issue = this.issuesByKey.get(key)
    return issue && !issue.deleted ? issueJson(issue, this.site, null) : undefined
  }
  issues(projectKey: string) {
    return [...new Set(this.issuesByKey.values())]
      .filter((i) => i.projectKey === projectKey && !i.deleted)
      .map((i) => issueJson(i, this.site, null))
  }
  versions(projectKey: string) {
    const project = this.site.projects.get(projectKey)!
    return this.site.versions.filter((v) => v.projectId === project.id).map((v) => versionJson(v, this.url))
  }
}
