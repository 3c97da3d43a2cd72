import type { NextFunction, Request, RequestHandler, Response } from 'express'
import crypto from 'node:crypto'
import path from 'node:path'
import { Gauge, Histogram } from 'prom-client'
import { normalizePath } from '../app/http/abuse'
import { openStreamCount } from '../app/features/live/live-hub.server'
import type { ServerEnv } from '../app/lib/env.server'
import { metrics, type Metrics } from '../app/lib/metrics.server'
import { outboxDepths } from '../app/lib/outbox-depth.server'
import type { RouteSlot } from '../app/load-context'
import { refuse } from './guards'

/**
 * `GET /metrics` (CONTRACT §5, issue "Capacity"), only with METRICS_TOKEN set: prom-client's
 * registry (app/lib/metrics.server.ts) in the Prometheus text format, for
 * `Authorization: Bearer <METRICS_TOKEN>` alone. Without the token there is no endpoint and
 * nothing is measured: the path is the app's as before.
 */
export type MetricsServer = {
  /** First of the middleware: times every request, by route pattern, method and status. */
  timing: RequestHandler
  /** The endpoint itself; other paths pass on. */
  endpoint: RequestHandler
}

export function metricsServer(env: ServerEnv): MetricsServer | null {
  const m = metrics()
  if (!env.METRICS_TOKEN || !m) return null
  addGauges(m)
  return { timing: timing(m), endpoint: endpoint(m, env.METRICS_TOKEN) }
}

/** Answers that are not timed: a live stream lasts as long as its viewer stays (`storymap_sse_streams` counts them). */
const isStream = (res: Response) =>
  String(res.getHeader('Content-Type') ?? '').startsWith('text/event-stream')
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])

/**
 * The route label: the router's pattern of the match (the load context's `route` slot, filled by
 * app/http/route-pattern.server.ts), `/metrics` for this endpoint, `static` for a file served by
 * Express, `unmatched` for anything answered before the router (a guard's or a rate limit's
 * refusal). Never the raw path: the label set stays small and holds no id.
 */
function routeOf(req: Request, slot: RouteSlot): string {
  // The router's patterns are relative to the root route: `v1/projects/:id`, `*`.
  if (slot.pattern !== undefined) return slot.pattern.startsWith('/') ? slot.pattern : `/${slot.pattern}`
  return req.path.startsWith('/assets/') || path.extname(req.path) ? 'static' : 'unmatched'
}

function timing(m: Metrics): RequestHandler {
  const seconds = new Histogram({
    name: 'storymap_http_request_duration_seconds',
    help: 'Time from the request to the end of its answer, by route pattern, method and status (live streams excluded).',
    labelNames: ['route', 'method', 'status'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [m.registry],
  })
  return (req, res, next) => {
    const slot: RouteSlot = {}
    res.locals.route = slot
    const started = performance.now()
    res.on('close', () => {
      if (isStream(res)) return
      const labels = {
        route: routeOf(req, slot),
        method: METHODS.has(req.method) ? req.method : 'other',
        status: String(res.statusCode),
      }
      seconds.observe(labels, (performance.now() - started) / 1000)
    })
    next()
  }
}

function addGauges(m: Metrics) {
  new Gauge({
    name: 'storymap_sse_streams',
    help: 'Live board streams (CONTRACT §6) open in this process.',
    registers: [m.registry],
    collect() {
      this.set(openStreamCount())
    },
  })
  new Gauge({
    name: 'storymap_outbox_pending',
    help: 'Messages waiting in each outbox: webhook deliveries, notification e-mails, GitHub pushes.',
    labelNames: ['outbox'],
    registers: [m.registry],
    collect() {
      for (const [outbox, count] of Object.entries(outboxDepths())) this.set({ outbox }, count)
    },
  })
}

const digest = (value: string) => crypto.hash('sha256', value, 'buffer')

function endpoint(m: Metrics, token: string): RequestHandler {
  const expected = digest(token)
  /** Compared in constant time: digests of equal length, whatever was sent. */
  const authorized = (header: string | undefined) => {
    const given = /^bearer +(.+?) *$/i.exec(header ?? '')?.[1]
    return given !== undefined && crypto.timingSafeEqual(digest(given), expected)
  }
  return (req: Request, res: Response, next: NextFunction) => {
    // The path as the router would see it (case, slashes, `.data`), so no spelling reaches the app;
    // most paths are passed on by the first test without parsing them.
    if (!/metrics|%/i.test(req.path) || normalizePath(req.path) !== '/metrics') return next()
    ;(res.locals.route as RouteSlot).pattern = '/metrics'
    res.set('Cache-Control', 'no-store')
    if (!authorized(req.headers.authorization)) {
      res.set('WWW-Authenticate', 'Bearer realm="metrics"')
      return refuse(
        req,
        res,
        401,
        'unauthorized',
        'GET /metrics needs Authorization: Bearer with METRICS_TOKEN.',
      )
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.set('Allow', 'GET, HEAD')
      return refuse(req, res, 405, 'method_not_allowed', `${req.method} is not allowed.`)
    }
    m.registry.metrics().then((text) => {
      res.locals.scraped = true // not logged: Prometheus comes every few seconds
      // As prom-client words it (`text/plain; version=0.0.4; charset=utf-8`): a string body would
      // have Express rewrite the type with its parameters reordered.
      res.set('Content-Type', m.registry.contentType).send(Buffer.from(text))
    }, next)
  }
}
