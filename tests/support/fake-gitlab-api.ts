import type express from 'express'
import crypto from 'node:crypto'
import { FakeService } from './fake-service'
import { GitlabStore, namesOf, sendPage } from './fake-gitlab-store'
import {
  issueHookBody,
  issueJson,
  iso,
  labelJson,
  milestoneJson,
  projectJson,
  type GitlabIssue,
  type GitlabProject,
  type GitlabUser,
  type HookChanges,
} from './fake-gitlab-shapes'

/**
 * The API side of the fake GitLab (tests use FakeGitlab, fake-gitlab.ts): REST API v4 as
 * `@gitbeaker/rest` calls it, under the fake's prefix. Tokens as `PRIVATE-TOKEN` or
 * `Authorization: Bearer` (refused once expired or revoked); projects by id or URL-encoded full
 * path with the token's access level; issues, labels, milestones; lists paged with GitLab's
 * `x-*` and `Link` headers; `RateLimit-*` headers on every answer. Every change of an issue is
 * posted to the project's hooks as an `Issue Hook`.
 */

const API = '/api/v4'
export const LIMIT = 2000
type Req = express.Request
type Res = express.Response
type Obj = Record<string, any>
type Access = { level: number; via: 'project' | 'group' }

export const GUEST = 10
export const REPORTER = 20
export const DEVELOPER = 30
export const OWNER = 50

export class GitlabApi extends FakeService {
  protected store = new GitlabStore(() => this.now())
  protected costly = 0
  protected bot: GitlabUser = { id: 1, username: 'root', name: 'Administrator' }

  /** The web address of the instance (issues' `web_url`), as the API's host. */
  get web() {
    return this.url
  }
  protected get api() {
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
      if (found)
        sendPage(
          req,
          res,
          this.origin,
          this.store.listIssues(found.project, req.query).map((i) => this.json(found.project, i)),
        )
    })
    this.on(r, 'post', `${API}/projects/:id/issues`, (req, res) => {
      const found = this.projectFor(req, res, GUEST)
      if (!found) return
      if (typeof req.body.title !== 'string' || req.body.title.trim() === '')
        return res.status(400).json({ error: 'title is missing' })
      const milestoneId = this.store.milestoneIdOf(found.project, req.body.milestone_id)
      if (milestoneId === undefined) return res.status(404).json({ message: '404 Milestone Not Found' })
      const issue = this.store.makeIssue(found.project, {
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
      const milestoneId = this.store.milestoneIdOf(found.project, req.body.milestone_id)
      if (milestoneId === undefined) return res.status(404).json({ message: '404 Milestone Not Found' })
      const b = req.body as Obj
      const state =
        b.state_event === 'close'
          ? ('closed' as const)
          : b.state_event === 'reopen'
            ? ('opened' as const)
            : undefined
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
      if (found) sendPage(req, res, this.origin, found.project.labels.map(labelJson))
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
      const label = { id: this.store.ids++, name, color, description: req.body.description ?? null }
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
      sendPage(
        req,
        res,
        this.origin,
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
        id: this.store.ids++,
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
      res.status(401).json({
        error: 'invalid_token',
        error_description: t.revoked
          ? 'Token was revoked. You have to re-authorize from the user.'
          : 'Token has expired.',
      })
      return false
    }
    return true
  }

  // ---- the server's side

  protected json(project: GitlabProject, issue: GitlabIssue) {
    return issueJson(issue, project, this.web, this.api)
  }

  protected tokenOf(req: Req) {
    const header =
      req.header('private-token') ?? (req.header('authorization') ?? '').replace(/^bearer\s+/i, '')
    return this.store.tokens.get(header)
  }

  /** The project named by `:id` (a number or a full path) if the token sees it and has `level`; else the answer is sent. */
  protected projectFor(
    req: Req,
    res: Res,
    level = GUEST,
  ): { project: GitlabProject; access: Access } | undefined {
    const project = this.store.projectByRef(String(req.params.id))
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

  protected issueFor(project: GitlabProject, req: Req, res: Res) {
    const issue = project.issues.get(Number(req.params.iid))
    if (!issue || issue.deleted) {
      res.status(404).json({ message: '404 Not found' })
      return undefined
    }
    return issue
  }

  /** Changes an issue as GitLab does and posts the Issue Hook. */
  protected change(
    project: GitlabProject,
    issue: GitlabIssue,
    c: Parameters<GitlabStore['change']>[2],
    by: GitlabUser,
  ) {
    const done = this.store.change(project, issue, c)
    if (done) this.hook(project, issue, done.action, done.changes, by)
  }

  protected hook(
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
}
