import express from 'express'
import crypto from 'node:crypto'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * A local stand-in for GitHub's REST API (the part Storymap uses, CONTRACT §13), reached by the
 * real Octokit through GITHUB_API_URL. Stateful: repositories, tokens, issues and labels live in
 * memory; issue lists paginate with Link headers and answer 304 to a matching If-None-Match
 * (without counting against the rate limit, as GitHub does); every answer carries the
 * x-ratelimit-* headers. Tests can make the next calls hit a rate limit (403 or 429, with
 * retry-after or x-ratelimit-reset), a 5xx, or a dropped connection, and edit issues "on GitHub".
 */

type Obj = Record<string, any>
export type FakeLabel = { id: number; name: string; color: string }
export type FakeIssue = {
  id: number
  number: number
  title: string
  body: string | null
  state: 'open' | 'closed'
  labels: FakeLabel[]
  created_at: string
  updated_at: string
  closed_at: string | null
  html_url: string
  pull_request?: { url: string }
  gone?: 'deleted' | 'transferred'
}
type Repo = {
  owner: string
  name: string
  issues: Map<number, FakeIssue>
  labels: FakeLabel[]
  nextNumber: number
}
type Token = { repos: Set<string>; push: boolean }
/** Which calls a fault hits: its path, and optionally the method and a test of the query. */
export type FaultMatch = { method?: string; query?: (query: Obj) => boolean }
type Fault = {
  path: RegExp
  match: FaultMatch
  kind: 'status' | 'drop' | 'rate'
  status?: number
  headers?: Record<string, string>
}
export type FakeCall = { method: string; path: string; query: Obj; status: number; body: Obj; at: number }

const LIMIT = 5000

export class FakeGithub {
  readonly calls: FakeCall[] = []
  private repos = new Map<string, Repo>()
  private tokens = new Map<string, Token>()
  private faults: Fault[] = []
  private server!: Server
  private ids = 1000
  /** Calls that counted against the rate limit (304s do not). */
  costly = 0
  url = ''

  /** Listens on loopback, on `port` (0: any free port). */
  async start(port = 0) {
    const app = express()
    app.use(express.json({ limit: '5mb' }))
    app.use((req, res, next) => this.guard(req, res, next))
    app.get('/repos/:owner/:repo', (req, res) => {
      const repo = this.repoFor(req, res)
      if (!repo) return
      const token = this.tokenOf(req)!
      res.json({
        id: 1,
        name: repo.name,
        full_name: `${repo.owner}/${repo.name}`,
        owner: { login: repo.owner },
        private: true,
        permissions: { admin: false, push: token.push, pull: true },
      })
    })
    app.get('/repos/:owner/:repo/issues', (req, res) => {
      const repo = this.repoFor(req, res)
      if (repo) this.listIssues(req, res, repo)
    })
    app.post('/repos/:owner/:repo/issues', (req, res) => {
      const repo = this.repoFor(req, res, true)
      if (!repo) return
      const issue = this.makeIssue(repo, {
        title: req.body.title,
        body: req.body.body ?? null,
        labels: req.body.labels ?? [],
      })
      res.status(201).json(this.shown(issue))
    })
    app.get('/repos/:owner/:repo/issues/:number', (req, res) => {
      const repo = this.repoFor(req, res)
      const issue = repo && this.issueFor(repo, req, res)
      if (issue) res.json(this.shown(issue))
    })
    app.patch('/repos/:owner/:repo/issues/:number', (req, res) => {
      const repo = this.repoFor(req, res, true)
      const issue = repo && this.issueFor(repo, req, res)
      if (!repo || !issue) return
      this.change(repo, issue, req.body)
      res.json(this.shown(issue))
    })
    app.get('/repos/:owner/:repo/labels', (req, res) => {
      const repo = this.repoFor(req, res)
      if (repo) this.paginate(req, res, repo.labels)
    })
    app.post('/repos/:owner/:repo/labels', (req, res) => {
      const repo = this.repoFor(req, res, true)
      if (!repo) return
      const name = String(req.body.name ?? '')
      if (repo.labels.some((l) => l.name.toLowerCase() === name.toLowerCase()))
        return res.status(422).json({
          message: 'Validation Failed',
          errors: [{ resource: 'Label', code: 'already_exists', field: 'name' }],
        })
      const label = { id: this.ids++, name, color: String(req.body.color ?? 'ededed') }
      repo.labels.push(label)
      res.status(201).json(label)
    })
    app.use((req, res) =>
      res.status(404).json({ message: 'Not Found', documentation_url: 'https://docs.github.com/rest' }),
    )
    await new Promise<void>((resolve) => {
      this.server = app.listen(port, '127.0.0.1', () => resolve())
    })
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`
    return this
  }

  stop() {
    this.server.closeAllConnections()
    return new Promise<void>((resolve) => this.server.close(() => resolve()))
  }

  // ---- set-up and "on GitHub" edits

  addRepo(fullName: string) {
    const [owner, name] = fullName.split('/')
    this.repos.set(fullName.toLowerCase(), { owner, name, issues: new Map(), labels: [], nextNumber: 1 })
  }

  /** A token that can read the repositories, and write them unless `push` is false. */
  addToken(token: string, repos: string[], push = true) {
    this.tokens.set(token, { repos: new Set(repos.map((r) => r.toLowerCase())), push })
  }

  revokeToken(token: string) {
    this.tokens.delete(token)
  }

  seedIssue(
    fullName: string,
    fields: {
      title: string
      body?: string | null
      labels?: string[]
      state?: 'open' | 'closed'
      pullRequest?: boolean
    },
  ) {
    const repo = this.repo(fullName)
    const issue = this.makeIssue(repo, {
      title: fields.title,
      body: fields.body ?? null,
      labels: fields.labels ?? [],
    })
    if (fields.state === 'closed') this.change(repo, issue, { state: 'closed' })
    if (fields.pullRequest)
      issue.pull_request = { url: `${this.url}/repos/${fullName}/pulls/${issue.number}` }
    return issue
  }

  /** Someone edits the issue on GitHub. */
  edit(
    fullName: string,
    number: number,
    changes: { title?: string; body?: string; state?: 'open' | 'closed'; labels?: string[] },
  ) {
    const repo = this.repo(fullName)
    const issue = repo.issues.get(number)!
    this.change(repo, issue, changes)
    return this.shown(issue)
  }

  /** The issue is deleted (410 from now on) or transferred away (404). */
  remove(fullName: string, number: number, how: 'deleted' | 'transferred') {
    this.repo(fullName).issues.get(number)!.gone = how
  }

  issue(fullName: string, number: number) {
    return this.repo(fullName).issues.get(number)
  }

  issues(fullName: string) {
    return [...this.repo(fullName).issues.values()]
  }

  labels(fullName: string) {
    return this.repo(fullName).labels
  }

  /** The next call whose path matches answers this status (e.g. 500, 401). */
  failNext(path: RegExp, status: number, match: FaultMatch = {}) {
    this.faults.push({ path, match, kind: 'status', status })
  }

  /** The next call whose path matches has its connection cut before any answer. */
  dropNext(path: RegExp, match: FaultMatch = {}) {
    this.faults.push({ path, match, kind: 'drop' })
  }

  /** The next call whose path matches hits a rate limit: 403 with x-ratelimit-remaining 0 and reset, or 429 with retry-after. */
  rateLimitNext(
    path: RegExp,
    how: { status: 403; resetInSeconds: number } | { status: 429; retryAfter: number },
    match: FaultMatch = {},
  ) {
    const headers: Record<string, string> =
      how.status === 403
        ? {
            'x-ratelimit-remaining': '0',
            'x-ratelimit-reset': String(Math.ceil(Date.now() / 1000) + how.resetInSeconds),
          }
        : { 'retry-after': String(how.retryAfter) }
    this.faults.push({ path, match, kind: 'rate', status: how.status, headers })
  }

  callsTo(method: string, path: RegExp) {
    return this.calls.filter((c) => c.method === method && path.test(c.path))
  }

  // ---- the server's side

  private guard(req: express.Request, res: express.Response, next: express.NextFunction) {
    const call: FakeCall = {
      method: req.method,
      path: req.path,
      query: { ...req.query },
      status: 0,
      body: req.body ?? {},
      at: Date.now(),
    }
    this.calls.push(call)
    res.on('finish', () => {
      call.status = res.statusCode
      if (res.statusCode !== 304) this.costly++
    })
    res.setHeader('x-ratelimit-limit', String(LIMIT))
    res.setHeader('x-ratelimit-remaining', String(Math.max(0, LIMIT - this.costly - 1)))
    res.setHeader('x-ratelimit-reset', String(Math.ceil(Date.now() / 1000) + 3600))
    const at = this.faults.findIndex(
      (f) =>
        f.path.test(req.path) &&
        (!f.match.method || f.match.method === req.method) &&
        (!f.match.query || f.match.query(req.query)),
    )
    if (at >= 0) {
      const [fault] = this.faults.splice(at, 1)
      if (fault.kind === 'drop') return req.socket.destroy()
      for (const [key, value] of Object.entries(fault.headers ?? {})) res.setHeader(key, value)
      const message =
        fault.kind === 'rate'
          ? 'API rate limit exceeded'
          : fault.status === 401
            ? 'Bad credentials'
            : 'Server Error'
      return res.status(fault.status!).json({ message })
    }
    if (!this.tokenOf(req)) return res.status(401).json({ message: 'Bad credentials' })
    next()
  }

  private tokenOf(req: express.Request): Token | undefined {
    const header = req.header('authorization') ?? ''
    const token = header.replace(/^(token|bearer)\s+/i, '')
    return this.tokens.get(token)
  }

  private repo(fullName: string): Repo {
    const repo = this.repos.get(fullName.toLowerCase())
    if (!repo) throw new Error(`no repository ${fullName}`)
    return repo
  }

  private repoFor(req: express.Request, res: express.Response, write = false): Repo | undefined {
    const fullName = `${req.params.owner}/${req.params.repo}`.toLowerCase()
    const token = this.tokenOf(req)!
    const repo = this.repos.get(fullName)
    if (!repo || !token.repos.has(fullName)) {
      res.status(404).json({ message: 'Not Found' })
      return undefined
    }
    if (write && !token.push) {
      res.status(403).json({ message: 'Resource not accessible by personal access token' })
      return undefined
    }
    return repo
  }

  private issueFor(repo: Repo, req: express.Request, res: express.Response): FakeIssue | undefined {
    const issue = repo.issues.get(Number(req.params.number))
    if (!issue || issue.gone) {
      res
        .status(issue?.gone === 'deleted' ? 410 : 404)
        .json({ message: issue?.gone === 'deleted' ? 'This issue was deleted' : 'Not Found' })
      return undefined
    }
    return issue
  }

  /** GitHub's times have whole seconds (two changes in one second have the same time). */
  private stamp(): string {
    return new Date(Math.floor(Date.now() / 1000) * 1000).toISOString().replace('.000Z', 'Z')
  }

  private makeIssue(
    repo: Repo,
    fields: { title: string; body: string | null; labels: (string | { name: string })[] },
  ): FakeIssue {
    const number = repo.nextNumber++
    const at = this.stamp()
    const issue: FakeIssue = {
      id: this.ids++,
      number,
      title: fields.title,
      body: fields.body,
      state: 'open',
      labels: this.labelsNamed(repo, fields.labels),
      created_at: at,
      updated_at: at,
      closed_at: null,
      html_url: `https://github.com/${repo.owner}/${repo.name}/issues/${number}`,
    }
    repo.issues.set(number, issue)
    return issue
  }

  /** Labels by name; GitHub makes missing ones (grey) when an issue names them. */
  private labelsNamed(repo: Repo, names: (string | { name: string })[]): FakeLabel[] {
    return names.map((n) => {
      const name = typeof n === 'string' ? n : n.name
      let label = repo.labels.find((l) => l.name.toLowerCase() === name.toLowerCase())
      if (!label) repo.labels.push((label = { id: this.ids++, name, color: 'ededed' }))
      return label
    })
  }

  private change(repo: Repo, issue: FakeIssue, changes: Obj) {
    if (typeof changes.title === 'string') issue.title = changes.title
    if (changes.body !== undefined) issue.body = changes.body
    if (changes.state === 'open' || changes.state === 'closed') {
      if (changes.state !== issue.state) issue.closed_at = changes.state === 'closed' ? this.stamp() : null
      issue.state = changes.state
    }
    if (Array.isArray(changes.labels)) issue.labels = this.labelsNamed(repo, changes.labels)
    issue.updated_at = this.stamp()
  }

  private shown(issue: FakeIssue) {
    const { gone: _gone, ...shown } = issue
    return {
      ...shown,
      url: issue.html_url.replace('https://github.com', `${this.url}/repos`),
      user: { login: 'octocat' },
    }
  }

  private listIssues(req: express.Request, res: express.Response, repo: Repo) {
    const q = req.query as Record<string, string | undefined>
    const state = q.state ?? 'open'
    const wanted = (q.labels ?? '')
      .split(',')
      .map((l) => l.trim().toLowerCase())
      .filter(Boolean)
    let list = [...repo.issues.values()].filter((i) => !i.gone && (state === 'all' || i.state === state))
    if (q.since)
      list = list.filter((i) => i.updated_at >= new Date(q.since!).toISOString().replace('.000Z', 'Z'))
    if (wanted.length > 0)
      list = list.filter((i) => wanted.every((w) => i.labels.some((l) => l.name.toLowerCase() === w)))
    const key = q.sort === 'updated' ? 'updated_at' : 'created_at'
    const dir = q.direction === 'asc' ? 1 : -1
    list.sort((a, b) => (a[key] < b[key] ? -dir : a[key] > b[key] ? dir : (a.number - b.number) * dir))
    this.paginate(
      req,
      res,
      list.map((i) => this.shown(i)),
    )
  }

  /** One page of a list, with GitHub's Link header and an ETag of exactly what is sent. */
  private paginate(req: express.Request, res: express.Response, items: unknown[]) {
    const perPage = Math.min(100, Math.max(1, Number(req.query.per_page ?? 30)))
    const page = Math.max(1, Number(req.query.page ?? 1))
    const last = Math.max(1, Math.ceil(items.length / perPage))
    const body = JSON.stringify(items.slice((page - 1) * perPage, page * perPage))
    const pageUrl = (n: number) => {
      const url = new URL(req.originalUrl, this.url)
      url.searchParams.set('page', String(n))
      return url.href
    }
    const links = []
    if (page < last) links.push(`<${pageUrl(page + 1)}>; rel="next"`, `<${pageUrl(last)}>; rel="last"`)
    if (page > 1) links.push(`<${pageUrl(1)}>; rel="first"`, `<${pageUrl(page - 1)}>; rel="prev"`)
    if (links.length > 0) res.setHeader('Link', links.join(', '))
    const etag = `W/"${crypto.createHash('sha1').update(body).digest('hex')}"`
    res.setHeader('ETag', etag)
    if (req.header('if-none-match') === etag) return res.status(304).end()
    res.type('application/json').send(body)
  }
}
