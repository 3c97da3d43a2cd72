import express from 'express'
import http from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * What the fake trackers (fake-gitlab.ts, fake-jira.ts) share: an Express app on loopback (port 0
 * by default), optionally under a path prefix (a self-managed GitLab at `/gitlab`); every call
 * recorded with the route it matched (so a test can say "one request"); failure switches (a
 * status, a rate limit, a cut connection) for the next calls that match; a clock tests can move;
 * and webhook deliveries to URLs, recorded with their answers.
 */

type Obj = Record<string, any>
export type FakeCall = {
  method: string
  path: string
  route: string
  query: Obj
  body: Obj
  headers: Obj
  status: number
  at: number
}
/** Which calls a switch hits: by method and query, and how many in a row (1 unless said). */
export type FaultMatch = { method?: string; query?: (query: Obj) => boolean; times?: number }
type Fault = {
  path: RegExp
  match: FaultMatch
  left: number
  kind: 'status' | 'drop' | 'rate'
  status: number
  headers: Record<string, string>
}
export type Delivery = {
  url: string
  headers: Record<string, string>
  body: string
  status: number | null
  error: string | null
}
export type Handler = (req: express.Request, res: express.Response) => unknown
type Method = 'get' | 'post' | 'put' | 'delete'

export abstract class FakeService {
  readonly calls: FakeCall[] = []
  readonly deliveries: Delivery[] = []
  /** Where the API is: the origin and the prefix (e.g. `http://127.0.0.1:41234/gitlab`). */
  url = ''
  origin = ''
  prefix = ''
  private faults: Fault[] = []
  private server!: http.Server
  private pending = new Set<Promise<unknown>>()
  private offset = 0
  private last = 0

  /** The routes of the API, registered with `on`. */
  protected abstract routes(router: express.Router): void
  /** Whether the call's credentials are good; it answers the refusal itself when not. */
  protected abstract authenticate(req: express.Request, res: express.Response): boolean
  /** The body of a failure switched on by a test, as the service words it. */
  protected abstract failure(status: number): { type: string; body: string }
  /** Headers every answer carries (rate-limit counters). */
  protected abstract everyAnswer(res: express.Response): void

  async start(options: { port?: number; prefix?: string } = {}) {
    this.prefix = (options.prefix ?? '').replace(/\/+$/, '')
    const app = express()
    app.use(express.json({ limit: '5mb', type: ['application/json', 'application/*+json'] }))
    app.use(express.urlencoded({ extended: true }))
    const router = express.Router()
    this.routes(router)
    router.use((req, res) => {
      this.record(req, res, 'unmatched')
      this.notFound(res)
    })
    app.use(this.prefix || '/', router)
    this.server = http.createServer(app)
    await new Promise<void>((resolve) => this.server.listen(options.port ?? 0, '127.0.0.1', resolve))
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`
    this.url = `${this.origin}${this.prefix}`
    return this
  }

  async stop() {
    await this.settled()
    this.server.closeAllConnections()
    await new Promise<void>((resolve) => this.server.close(() => resolve()))
  }

  protected abstract notFound(res: express.Response): void

  /** Registers a route; the wrapper records the call, applies switched-on failures, then checks credentials. */
  protected on(
    router: express.Router,
    method: Method,
    path: string,
    handler: Handler,
    options: { anonymous?: boolean } = {},
  ) {
    router[method](path, (req, res) => {
      this.record(req, res, `${method.toUpperCase()} ${path}`)
      this.everyAnswer(res)
      if (this.applyFault(req, res)) return
      if (!options.anonymous && !this.authenticate(req, res)) return
      handler(req, res)
    })
  }

  private record(req: express.Request, res: express.Response, route: string) {
    const call: FakeCall = {
      method: req.method,
      path: req.path,
      route,
      query: { ...req.query },
      body: req.body ?? {},
      headers: { ...req.headers },
      status: 0,
      at: this.now(),
    }
    this.calls.push(call)
    res.on('finish', () => (call.status = res.statusCode))
  }

  private applyFault(req: express.Request, res: express.Response) {
    const fault = this.faults.find(
      (f) =>
        f.path.test(req.path) &&
        (!f.match.method || f.match.method.toUpperCase() === req.method) &&
        (!f.match.query || f.match.query(req.query)),
    )
    if (!fault) return false
    if (--fault.left <= 0) this.faults.splice(this.faults.indexOf(fault), 1)
    if (fault.kind === 'drop') {
      req.socket.destroy()
      return true
    }
    for (const [key, value] of Object.entries(fault.headers)) res.setHeader(key, value)
    const { type, body } = this.failure(fault.status)
    res.status(fault.status).type(type).send(body)
    return true
  }

  // ---- what tests use

  /** How many calls matched a route, e.g. `GET /api/v4/projects/:id/issues`. */
  count(route: string) {
    return this.calls.filter((c) => c.route === route).length
  }

  callsTo(method: string, path: RegExp) {
    return this.calls.filter((c) => c.method === method && path.test(c.path))
  }

  /** Forgets the calls so far (to count those of one step). */
  resetCalls() {
    this.calls.length = 0
  }

  /** The next calls whose path matches (inside the prefix) answer this status (401, 404, 500, 503…). */
  failNext(path: RegExp, status: number, match: FaultMatch = {}) {
    this.faults.push({ path, match, left: match.times ?? 1, kind: 'status', status, headers: {} })
  }

  /** The next calls whose path matches have their connection cut before any answer. */
  dropNext(path: RegExp, match: FaultMatch = {}) {
    this.faults.push({ path, match, left: match.times ?? 1, kind: 'drop', status: 0, headers: {} })
  }

  /** The next calls whose path matches answer 429 with these headers. */
  protected rateLimit(path: RegExp, headers: Record<string, string>, match: FaultMatch) {
    this.faults.push({ path, match, left: match.times ?? 1, kind: 'rate', status: 429, headers })
  }

  /** Forgets every failure still switched on. */
  clearFailures() {
    this.faults = []
  }

  /** The fake's time: the real one, moved by `advance`; never the same twice (changes keep their order). */
  now() {
    const t = Math.max(Date.now() + this.offset, this.last + 1)
    this.last = t
    return t
  }

  /** Moves the fake's clock forward (or back, for a negative amount). */
  advance(ms: number) {
    this.offset += ms
  }

  /** Posts a webhook and records it; resolves once the receiver has answered (or failed). */
  protected deliver(url: string, headers: Record<string, string>, body: string): Promise<Delivery> {
    const delivery: Delivery = { url, headers, body, status: null, error: null }
    this.deliveries.push(delivery)
    const sent = fetch(url, { method: 'POST', headers, body })
      .then(async (res) => {
        delivery.status = res.status
        await res.arrayBuffer()
      })
      .catch((error: Error) => {
        delivery.error = error.message
      })
      .then(() => delivery)
    this.pending.add(sent)
    void sent.finally(() => this.pending.delete(sent))
    return sent
  }

  /** Waits for every webhook sent so far to be answered. */
  async settled() {
    while (this.pending.size > 0) await Promise.all([...this.pending])
  }
}

/** One page of a list: the items, and the numbers GitLab and tests page by. */
export function pageOf<T>(items: T[], page: number, perPage: number) {
  const totalPages = Math.max(1, Math.ceil(items.length / perPage))
  return { items: items.slice((page - 1) * perPage, page * perPage), totalPages }
}
