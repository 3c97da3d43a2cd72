import type express from 'express'
import crypto from 'node:crypto'
import { FakeService, pageOf, type FaultMatch } from './fake-service'
import {
  issueHookBody,
  issueJson,
  iso,
  labelJson,
  milestoneJson,
  projectJson,
  type GitlabIssue,
  type GitlabProject,
  type GitlabToken,
  type GitlabUser,
  type HookChanges,
} from './fake-gitlab-shapes'

/**
 * A local stand-in for GitLab's REST API v4 (the part CONTRACT §14 uses), reached by the real
 * `@gitbeaker/rest` client with `host` = `url` (which may have a path prefix, as a self-managed
 * GitLab at `https://host/gitlab`). Stateful: tokens (`PRIVATE-TOKEN` or `Authorization: Bearer`,
 * with an expiry date), projects by id or URL-encoded full path with the token's access level,
 * issues, labels and milestones. Lists page with GitLab's headers; every answer carries the
 * `RateLimit-*` headers. A test edits issues "on GitLab" with `edit`, `remove` and `moveAway`;
 * every change (through the API too) is posted to the project's hooks as an `Issue Hook`.
 */

const API = '/api/v4'
const LIMIT = 2000
type Req = express.Request
type Res = express.Response
type Obj = Record<string, any>
type Access = { level: number; via: 'project' | 'group' }

export const GUEST = 10
export const REPORTER = 20
export const DEVELOPER = 30
export const OWNER = 50

export class FakeGitlab extends FakeService {
  private projects = new Map<string, GitlabProject>()
  private tokens = new Map<string, GitlabToken>()
  private ids = 100
  private costly = 0
  private bot: GitlabUser = { id: 1, username: 'root', name: 'Administrator' }

  /** The web address of the instance (issues' `web_url`), as the API's host. */
  get web() {
    return this.url
  }
  private get api() {
    return `${this.url}${API}`
  }

  protected routes(r: express.Router) {
    this.on(r, 'get', `${API}/personal_access_tokens/self`, (req, res) => {
      const t = this.tokenOf(req)!
      res.json({
        id: t.id,
        name: t.name,
        revoked: t.revoked,
        created_at: t.created_at,
        description: '',
        scopes: t.scopes,
        user_id: t.user.id,
        last_used_at: iso(this.now()),
        active: true,
        expires_at: t.expiresAt,
      })
    })
    this.on(r, 'get', `${API}/user`, (req, res) => {
      const u = this.tokenOf(req)!.user
      res.json({
        id: u.id,
        username: u.username,
        name: u.name,
        state: 'active',
        web_url: `${this.web}/${u.username}`,
      })
    })
    this.on(r, 'get', `${API}/projects/:id`, (req, res) => {
      const found = this.projectFor(req, res)
      if (found) res.json(projectJson(found.project, this.web, found.access))
    })
    this.on(r, 'get', `${API}/projects/:id/issues`, (req, res) => {
      const found = this.projectFor(req, res)
      if (found) this.listIssues(req, res, found.project)
    })
    this.on(r, 'post', `${API}/projects/:id/issues`, (req, res) => {
      const found = this.projectFor(req, res, GUEST)
      if (!found) return
      if (typeof req.body.title !== 'string' || req.body.title.trim() === '')
        return res.status(400).json({ error: 'title is missing' })
      const milestoneId = this.milestoneIdOf(found.project, req.body.milestone_id)
      if (milestoneId === undefined) return res.status(404).json({ message: '404 Milestone Not Found' })
      const issue = this.makeIssue(found.project, {
        title: req.body.title,
        description: req.body.description ?? null,
        labels: namesOf(req.body.labels),
        milestoneId,
        author: this.tokenOf(req)!.user,
      })
      this.hook(found.project, issue, 'open', {}, issue.author)
      res.status(201).json(this.json(found.project, issue))
    })
    this.on(r, 'get', `${API}/projects/:id/issues/:iid`, (req, res) => {
      const found = this.projectFor(req, res)
      const issue = found && this.issueFor(found.project, req, res)
      if (issue) res.json(this.json(found.project, issue))
    })
    this.on(r, 'put', `${API}/projects/:id/issues/:iid`, (req, res) => {
      const found = this.projectFor(req, res, REPORTER)
      const issue = found && this.issueFor(found.project, req, res)
      if (!issue) return
      const milestoneId = this.milestoneIdOf(found.project, req.body.milestone_id)
      if (milestoneId === undefined) return res.status(404).json({ message: '404 Milestone Not Found' })
      const b = req.body as Obj
      const state = b.state_event === 'close' ? ('closed' as const) : b.state_event === 'reopen' ? ('opened' as const) : undefined
      let labels = b.labels !== undefined ? namesOf(b.labels) : undefined
      if (b.add_labels !== undefined || b.remove_labels !== undefined) {
        const remove = namesOf(b.remove_labels).map((n) => n.toLowerCase())
        labels = [...(labels ?? issue.labels), ...namesOf(b.add_labels)].filter(
          (n) => !remove.includes(n.toLowerCase()),
        )
      }
      const changes = {
        title: b.title,
        description: b.description,
        state,
        labels,
        milestoneId: b.milestone_id === undefined ? undefined : milestoneId,
      }
      this.change(found.project, issue, changes, this.tokenOf(req)!.user)
      res.json(this.json(found.project, issue))
    })
    this.on(r, 'delete', `${API}/projects/:id/issues/:iid`, (req, res) => {
      const found = this.projectFor(req, res, OWNER)
      const issue = found && this.issueFor(found.project, req, res)
      if (!issue) return
      issue.deleted = true
      res.status(204).end()
    })
    this.on(r, 'get', `${API}/projects/:id/labels`, (req, res) => {
      const found = this.projectFor(req, res)
      if (found) this.page(req, res, found.project.labels.map(labelJson))
    })
    this.on(r, 'post', `${API}/projects/:id/labels`, (req, res) => {
      const found = this.projectFor(req, res, REPORTER)
      if (!found) return
      const name = String(req.body.name ?? '').trim()
      const color = String(req.body.color ?? '')
      if (name === '') return res.status(400).json({ error: 'name is missing' })
      if (!/^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i.test(color))
        return res.status(400).json({ message: { color: ['must be a valid color code'] } })
      if (found.project.labels.some((l) => l.name === name))
        return res.status(409).json({ message: 'Label already exists' })
      const label = { id: this.ids++, name, color, description: req.body.description ?? null }
      found.project.labels.push(label)
      res.status(201).json(labelJson(label))
    })
    this.on(r, 'get', `${API}/projects/:id/milestones`, (req, res) => {
      const found = this.projectFor(req, res)
      if (!found) return
      const q = req.query as Record<string, string | undefined>
      const list = found.project.milestones.filter(
        (m) =>
          (!q.title || m.title === q.title) &&
          (!q.search || m.title.toLowerCase().includes(q.search.toLowerCase())) &&
          (!q.state || m.state === q.state),
      )
      this.page(
        req,
        res,
        list.map((m) => milestoneJson(m, found.project, this.web)),
      )
    })
    this.on(r, 'post', `${API}/projects/:id/milestones`, (req, res) => {
      const found = this.projectFor(req, res, REPORTER)
      if (!found) return
      const title = String(req.body.title ?? '').trim()
      if (title === '') return res.status(400).json({ error: 'title is missing' })
      if (found.project.milestones.some((m) => m.title === title))
        return res.status(400).json({ message: 'Milestone already exists' })
      const at = iso(this.now())
      const m = {
        id: this.ids++,
        iid: found.project.milestones.length + 1,
        title,
        state: 'active' as const,
        created_at: at,
        updated_at: at,
      }
      found.project.milestones.push(m)
      res.status(201).json(milestoneJson(m, found.project, this.web))
    })
  }

  protected notFound(res: Res) {
    res.status(404).json({ error: '404 Not Found' })
  }

  protected failure(status: number) {
    if (status === 429) return { type: 'text/plain', body: 'Retry later\n' }
    const words: Record<number, string> = {
      401: 'Unauthorized',
      403: 'Forbidden',
      404: 'Not found',
      500: 'Internal Server Error',
      502: 'Bad Gateway',
      503: 'Service Unavailable',
    }
    return {
      type: 'application/json',
      body: JSON.stringify({ message: `${status} ${words[status] ?? 'Error'}` }),
    }
  }

  protected everyAnswer(res: Res) {
    res.on('finish', () => this.costly++)
    res.setHeader('RateLimit-Limit', String(LIMIT))
    res.setHeader('RateLimit-Observed', String(this.costly + 1))
    res.setHeader('RateLimit-Remaining', String(Math.max(0, LIMIT - this.costly - 1)))
    res.setHeader('RateLimit-Reset', String(Math.ceil(Date.now() / 60_000) * 60))
  }

  protected authenticate(req: Req, res: Res) {
    const t = this.tokenOf(req)
    if (!t) {
      res.status(401).json({ message: '401 Unauthorized' })
      return false
    }
    if (t.revoked || (t.expiresAt !== null && t.expiresAt < iso(this.now()).slice(0, 10))) {
      res
        .status(401)
        .json({
          error: 'invalid_token',
          error_description: t.revoked
            ? 'Token was revoked. You have to re-authorize from the user.'
            : 'Token has expired.',
        })
      return false
    }
    return true
  }

  // ---- set-up

  /** A project at a full path (`group/sub/name`); answers its numeric id. */
  addProject(path: string) {
    const project: GitlabProject = {
      id: this.ids++,
      path,
      issues: new Map(),
      labels: [],
      milestones: [],
      nextIid: 1,
      hooks: [],
    }
    this.projects.set(path.toLowerCase(), project)
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
    this.tokens.set(token, {
      id: this.ids++,
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
    this.tokens.get(token)!.revoked = true
  }

  /** Posts an `Issue Hook` to `url` with `X-Gitlab-Token: secret` for every change of the project's issues. */
  addHook(path: string, url: string, secret: string) {
    this.project(path).hooks.push({ url, token: secret })
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
    const project = this.project(path)
    const milestone = fields.milestone ? this.milestoneNamed(project, fields.milestone) : null
    const issue = this.makeIssue(project, {
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
    const project = this.project(path)
    const issue = project.issues.get(iid)!
    const milestoneId =
      changes.milestone === undefined
        ? undefined
        : changes.milestone === null
          ? null
          : this.milestoneNamed(project, changes.milestone).id
    this.change(project, issue, { ...changes, milestoneId }, this.bot)
    await this.settled()
    return this.json(project, issue)
  }

  /** The issue is deleted: 404 from then on, gone from lists (GitLab posts no hook for it). */
  remove(path: string, iid: number) {
    this.project(path).issues.get(iid)!.deleted = true
  }

  /** The issue is moved to another project: closed here with `moved_to_id`, a new issue there. */
  async moveAway(path: string, iid: number, toPath: string) {
    const from = this.project(path)
    const issue = from.issues.get(iid)!
    const to = this.project(toPath)
    const moved = this.makeIssue(to, { ...issue, labels: [...issue.labels], milestoneId: null })
    issue.moved_to_id = moved.id
    this.change(from, issue, { state: 'closed' }, this.bot)
    await this.settled()
    return this.json(to, moved)
  }

  // ---- reading the state

  issue(path: string, iid: number) {
    const project = this.project(path)
    const issue = project.issues.get(iid)
    return issue && !issue.deleted ? this.json(project, issue) : undefined
  }
  issues(path: string) {
    const project = this.project(path)
    return [...project.issues.values()].filter((i) => !i.deleted).map((i) => this.json(project, i))
  }
  labels(path: string) {
    return this.project(path).labels.map(labelJson)
  }
  milestones(path: string) {
    const project = this.project(path)
    return project.milestones.map((m) => milestoneJson(m, project, this.web))
  }

  // ---- the server's side

  private json(project: GitlabProject, issue: GitlabIssue) {
    return issueJson(issue, project, this.web, this.api)
  }

  private tokenOf(req: Req) {
    const header =
      req.header('private-token') ?? (req.header('authorization') ?? '').replace(/^bearer\s+/i, '')
    return this.tokens.get(header)
  }

  private project(path: string) {
    const project = this.projects.get(path.toLowerCase())
    if (!project) throw new Error(`no project ${path}`)
    return project
  }

  /** The project named by `:id` (a number or a full path) if the token sees it and has `level`; else the answer is sent. */
  private projectFor(
    req: Req,
    res: Res,
    level = GUEST,
  ): { project: GitlabProject; access: Access } | undefined {
    const id = String(req.params.id)
    const project = /^\d+$/.test(id)
      ? [...this.projects.values()].find((p) => p.id === Number(id))
      : this.projects.get(id.toLowerCase())
    const access = project && this.tokenOf(req)!.access.get(project.path.toLowerCase())
    if (!project || !access) {
      res.status(404).json({ message: '404 Project Not Found' })
      return undefined
    }
    if (access.level < level) {
      res.status(403).json({ message: '403 Forbidden' })
      return undefined
    }
    return { project, access }
  }

  private issueFor(project: GitlabProject, req: Req, res: Res) {
    const issue = project.issues.get(Number(req.params.iid))
    if (!issue || issue.deleted) {
      res.status(404).json({ message: '404 Not found' })
      return undefined
    }
    return issue
  }

  /** A milestone id from a request: null unassigns (0, null, ''), undefined when unknown. */
  private milestoneIdOf(project: GitlabProject, value: unknown): number | null | undefined {
    if (value === undefined || value === null || value === '' || Number(value) === 0) return null
    return project.milestones.find((m) => m.id === Number(value))?.id
  }

  private milestoneNamed(project: GitlabProject, title: string) {
    let milestone = project.milestones.find((m) => m.title === title)
    if (!milestone) {
      const at = iso(this.now())
      milestone = {
        id: this.ids++,
        iid: project.milestones.length + 1,
        title,
        state: 'active',
        created_at: at,
        updated_at: at,
      }
      project.milestones.push(milestone)
    }
    return milestone
  }

  /** Label names, creating the ones the project lacks (GitLab does so, in its default colour). */
  private labelsNamed(project: GitlabProject, names: string[]) {
    return [...new Set(names)].map((name) => {
      let label = project.labels.find((l) => l.name === name)
      if (!label) project.labels.push((label = { id: this.ids++, name, color: '#6699cc', description: null }))
      return label.name
    })
  }

  private makeIssue(
    project: GitlabProject,
    f: {
      title: string
      description: string | null
      labels: string[]
      milestoneId: number | null
      author: GitlabUser
    },
  ) {
    const at = iso(this.now())
    const issue: GitlabIssue = {
      id: this.ids++,
      iid: project.nextIid++,
      title: f.title,
      description: f.description,
      state: 'opened',
      labels: this.labelsNamed(project, f.labels),
      milestoneId: f.milestoneId,
      created_at: at,
      updated_at: at,
      closed_at: null,
      moved_to_id: null,
      deleted: false,
      author: f.author,
    }
    project.issues.set(issue.iid, issue)
    return issue
  }

  private change(
    project: GitlabProject,
    issue: GitlabIssue,
    c: {
      title?: string
      description?: string
      state?: 'opened' | 'closed'
      labels?: string[]
      milestoneId?: number | null
    },
    by: GitlabUser,
  ) {
    const changes: HookChanges = {}
    const set = <K extends keyof GitlabIssue>(
      key: K,
      value: GitlabIssue[K] | undefined,
      name: string = key,
    ) => {
      if (value === undefined || JSON.stringify(value) === JSON.stringify(issue[key])) return
      changes[name] = { previous: issue[key], current: value }
      issue[key] = value
    }
    const before = issue.state
    set('title', c.title)
    set('description', c.description)
    set('labels', c.labels && this.labelsNamed(project, c.labels))
    set('milestoneId', c.milestoneId, 'milestone_id')
    set('state', c.state)
    if (Object.keys(changes).length === 0) return
    if (issue.state !== before) issue.closed_at = issue.state === 'closed' ? iso(this.now()) : null
    const updated = iso(this.now())
    changes.updated_at = { previous: issue.updated_at, current: updated }
    issue.updated_at = updated
    const action = issue.state === before ? 'update' : issue.state === 'closed' ? 'close' : 'reopen'
    this.hook(project, issue, action, changes, by)
  }

  private hook(
    project: GitlabProject,
    issue: GitlabIssue,
    action: 'open' | 'close' | 'reopen' | 'update',
    changes: HookChanges,
    by: GitlabUser,
  ) {
    if (project.hooks.length === 0) return
    const body = JSON.stringify(issueHookBody(issue, project, this.web, action, changes, by))
    for (const hook of project.hooks)
      void this.deliver(
        hook.url,
        {
          'Content-Type': 'application/json',
          'User-Agent': 'GitLab/17.6.0',
          'X-Gitlab-Event': 'Issue Hook',
          'X-Gitlab-Token': hook.token,
          'X-Gitlab-Instance': this.web,
          'X-Gitlab-Webhook-UUID': crypto.randomUUID(),
          'X-Gitlab-Event-UUID': crypto.randomUUID(),
        },
        body,
      )
  }

  private listIssues(req: Req, res: Res, project: GitlabProject) {
    const q = req.query as Record<string, any>
    const state = q.state ?? 'all'
    const wanted = namesOf(q.labels).map((l) => l.toLowerCase())
    const iids = q.iids === undefined ? null : ([] as string[]).concat(q.iids).map(Number)
    const after = q.updated_after ? new Date(q.updated_after).getTime() : null
    const before = q.updated_before ? new Date(q.updated_before).getTime() : null
    const key: 'created_at' | 'updated_at' = q.order_by === 'updated_at' ? 'updated_at' : 'created_at'
    const dir = q.sort === 'asc' ? 1 : -1
    const list = [...project.issues.values()]
      .filter((i) => !i.deleted && (state === 'all' || i.state === state))
      .filter((i) => wanted.every((w) => i.labels.some((l) => l.toLowerCase() === w)))
      .filter((i) => iids === null || iids.includes(i.iid))
      .filter(
        (i) =>
          (after === null || Date.parse(i.updated_at) >= after) &&
          (before === null || Date.parse(i.updated_at) <= before),
      )
      .sort((a, b) => (a[key] < b[key] ? -dir : a[key] > b[key] ? dir : (a.id - b.id) * dir))
    this.page(
      req,
      res,
      list.map((i) => this.json(project, i)),
    )
  }

  /** One page of a list, with GitLab's `x-*` headers and its `Link` header (prev, next, first, last). */
  private page(req: Req, res: Res, items: unknown[]) {
    const perPage = Math.min(100, Math.max(1, Number(req.query.per_page ?? 20)))
    const page = Math.max(1, Number(req.query.page ?? 1))
    const { items: slice, totalPages } = pageOf(items, page, perPage)
    const at = (n: number) => {
      const url = new URL(req.originalUrl, this.origin)
      url.searchParams.set('page', String(n))
      url.searchParams.set('per_page', String(perPage))
      return url.href
    }
    const links = []
    if (page > 1) links.push(`<${at(page - 1)}>; rel="prev"`)
    if (page < totalPages) links.push(`<${at(page + 1)}>; rel="next"`)
    links.push(`<${at(1)}>; rel="first"`, `<${at(totalPages)}>; rel="last"`)
    res.setHeader('Link', links.join(', '))
    res.setHeader('X-Page', String(page))
    res.setHeader('X-Per-Page', String(perPage))
    res.setHeader('X-Next-Page', page < totalPages ? String(page + 1) : '')
    res.setHeader('X-Prev-Page', page > 1 ? String(page - 1) : '')
    res.setHeader('X-Total', String(items.length))
    res.setHeader('X-Total-Pages', String(totalPages))
    res.json(slice)
  }
}

/** Label names from GitLab's comma list or an array. */
function namesOf(value: unknown): string[] {
  const list = Array.isArray(value) ? value.map(String) : typeof value === 'string' ? value.split(',') : []
  return list.map((n) => n.trim()).filter(Boolean)
}
