import type { FaultMatch } from './fake-service'
import { GitlabApi, LIMIT } from './fake-gitlab-api'
import { iso, labelJson, milestoneJson, type GitlabProject, type GitlabUser } from './fake-gitlab-shapes'

export { DEVELOPER, GUEST, OWNER, REPORTER } from './fake-gitlab-api'

/**
 * A local stand-in for GitLab's REST API v4 (the part CONTRACT §14 uses), reached by the real
 * `@gitbeaker/rest` client with `host` = `url` (a path prefix is allowed: a self-managed GitLab at
 * `https://host/gitlab`); the API itself is in fake-gitlab-api.ts. This is what tests set up
 * (projects, tokens with access levels and expiry, hooks, failures) and what a person does "on
 * GitLab" (`edit`, `remove`, `moveAway`): every change is posted to the hooks as an Issue Hook.
 */

export class FakeGitlab extends GitlabApi {
  // ---- set-up

  /** A project at a full path (`group/sub/name`); answers its numeric id. */
  addProject(path: string) {
    const project: GitlabProject = {
      id: this.store.ids++,
      path,
      issues: new Map(),
      labels: [],
      milestones: [],
      nextIid: 1,
      hooks: [],
    }
    this.store.projects.set(path.toLowerCase(), project)
    return project.id
  }

  /**
   * A token with an access level per project path (through the project, or its group), an expiry
   * date (`YYYY-MM-DD`, or null for none) and scopes.
   */
  addToken(
    token: string,
    options: {
      projects: Record<string, number>
      via?: 'project' | 'group'
      expiresAt?: string | null
      user?: GitlabUser
      scopes?: string[]
    },
  ) {
    const access = new Map(
      Object.entries(options.projects).map(([path, level]) => [
        path.toLowerCase(),
        { level, via: options.via ?? 'project' },
      ]),
    )
    this.store.tokens.set(token, {
      id: this.store.ids++,
      name: 'storymap',
      user: options.user ?? { id: 2, username: 'ada', name: 'Ada Lovelace' },
      access,
      scopes: options.scopes ?? ['api'],
      expiresAt: options.expiresAt ?? null,
      revoked: false,
      created_at: iso(this.now()),
    })
  }

  revokeToken(token: string) {
    this.store.tokens.get(token)!.revoked = true
  }

  /** Posts an `Issue Hook` to `url` with `X-Gitlab-Token: secret` for every change of the project's issues. */
  addHook(path: string, url: string, secret: string) {
    this.store.project(path).hooks.push({ url, token: secret })
  }

  /** The next calls whose path matches answer 429, with `Retry-After` and/or `RateLimit-Reset` as GitLab sends them. */
  rateLimitNext(path: RegExp, how: { retryAfter?: number; resetInSeconds?: number }, match: FaultMatch = {}) {
    const headers: Record<string, string> = {
      'RateLimit-Remaining': '0',
      'RateLimit-Limit': String(LIMIT),
      'RateLimit-Name': 'throttle_authenticated_api',
    }
    if (how.retryAfter !== undefined) headers['Retry-After'] = String(how.retryAfter)
    if (how.resetInSeconds !== undefined) {
      const reset = Math.ceil(Date.now() / 1000) + how.resetInSeconds
      headers['RateLimit-Reset'] = String(reset)
      headers['RateLimit-ResetTime'] = new Date(reset * 1000).toUTCString()
    }
    this.rateLimit(path, headers, match)
  }

  /** An issue made without any hook (the state a test starts from). */
  seedIssue(
    path: string,
    fields: {
      title: string
      description?: string | null
      labels?: string[]
      state?: 'opened' | 'closed'
      milestone?: string
    },
  ) {
    const project = this.store.project(path)
    const milestone = fields.milestone ? this.store.milestoneNamed(project, fields.milestone) : null
    const issue = this.store.makeIssue(project, {
      title: fields.title,
      description: fields.description ?? null,
      labels: fields.labels ?? [],
      milestoneId: milestone?.id ?? null,
      author: this.bot,
    })
    if (fields.state === 'closed') Object.assign(issue, { state: 'closed', closed_at: issue.updated_at })
    return this.json(project, issue)
  }

  // ---- "on GitLab": what a person does there (each posts an Issue Hook, awaited)

  async edit(
    path: string,
    iid: number,
    changes: {
      title?: string
      description?: string
      state?: 'opened' | 'closed'
      labels?: string[]
      milestone?: string | null
    },
  ) {
    const project = this.store.project(path)
    const issue = project.issues.get(iid)!
    const milestoneId =
      changes.milestone === undefined
        ? undefined
        : changes.milestone === null
          ? null
          : this.store.milestoneNamed(project, changes.milestone).id
    this.change(project, issue, { ...changes, milestoneId }, this.bot)
    await this.settled()
    return this.json(project, issue)
  }

  /** The issue is deleted: 404 from then on, gone from lists (GitLab posts no hook for it). */
  remove(path: string, iid: number) {
    this.store.project(path).issues.get(iid)!.deleted = true
  }

  /** The issue is moved to another project: closed here with `moved_to_id`, a new issue there. */
  async moveAway(path: string, iid: number, toPath: string) {
    const from = this.store.project(path)
    const issue = from.issues.get(iid)!
    const to = this.store.project(toPath)
    const moved = this.store.makeIssue(to, { ...issue, labels: [...issue.labels], milestoneId: null })
    issue.moved_to_id = moved.id
    this.change(from, issue, { state: 'closed' }, this.bot)
    await this.settled()
    return this.json(to, moved)
  }

  // ---- reading the state

  issue(path: string, iid: number) {
    const project = this.store.project(path)
    const issue = project.issues.get(iid)
    return issue && !issue.deleted ? this.json(project, issue) : undefined
  }
  issues(path: string) {
    const project = this.store.project(path)
    return [...project.issues.values()].filter((i) => !i.deleted).map((i) => this.json(project, i))
  }
  labels(path: string) {
    return this.store.project(path).labels.map(labelJson)
  }
  milestones(path: string) {
    const project = this.store.project(path)
    return project.milestones.map((m) => milestoneJson(m, project, this.web))
  }
}
