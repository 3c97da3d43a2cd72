import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from 'express'
import { Piscina } from 'piscina'
import v8 from 'node:v8'
import type { ServerBuild } from 'react-router'
import { isApiRequest } from './guards'
import { pageRouteMatcher } from './page-routes'
import type { OutgoingHttpHeaders } from 'node:http'
import { encodingFor } from './compress-answer'
import type { Encoding } from '../app/features/map/bundle-encoding.server'
import { requestHeaders, requestUrl, writeHead } from './remix-handler'
import { cspNonceOf } from './security-headers'
import { rateLimitNotice, type RateLimitNotice } from './rate-limits'

/** A page request as it crosses to the page worker: plain data. */
export type PageTask = {
  url: string
  headers: Record<string, string>
  requestId: string
  cspNonce: string
  clientIp: string
  rateLimit: RateLimitNotice | null
  /** Whether /metrics wants the matched route's pattern back. */
  timed: boolean
  /** What the page is compressed with on its thread, as the client accepts. */
  encoding: Encoding | null
}

/** The rendered page, whole, compressed as the task asked (its headers say so). */
export type PageAnswer = {
  status: number
  statusText: string
  headers: OutgoingHttpHeaders
  body: Uint8Array | null
  pattern?: string
}

/**
 * The young generation of a page thread (MB per semi-space; the main thread keeps the 4 MB of
 * `npm start`'s `--max-semi-space-size`). A board page allocates tens of megabytes that live
 * only for its render; with 4 MB, two or three scavenges fell in every render and promoted the
 * page's live objects, and the old space filled every few pages: V8's helper thread spent a
 * third as much CPU on collecting them as the thread on rendering. With 16 MB a page cost 17 %
 * less CPU in all (the helper's part 25 % less) for about 30 MB more RSS; 32 MB gained no more
 * (issue 34, ADR 29). Worker `resourceLimits` cannot set it: V8 lets the command-line flag win.
 */
export const PAGE_SEMI_SPACE_MB = 16

/**
 * The reads of a whole map through the API (`GET /v1/projects/{id}`, `GET /v1/link/{key}`): what the
 * live board, scripts, MCP clients and the trackers ask for most. Like pages they only read, and a
 * map's JSON is the largest answer the API makes (issue 49).
 */
const MAP_READ = /^\/v1\/(projects|link)\/[^/]+\/?$/i
export const isMapRead = (path: string) => MAP_READ.test(path) && !/^\/v1\/projects\/import\/?$/i.test(path)

/**
 * Pages (GET of a route with a component) and the API's map reads are answered on worker threads,
 * everything else on the main thread: writes through the one door, live streams, the rest of /v1,
 * resource routes, page actions.
 * A board page of 4,000 cards takes a few hundred milliseconds of JavaScript to render; on the
 * main thread every write and live event arriving meanwhile waited for it (issue 34, ADR 29).
 */
export function pageWorkers({
  build,
  buildUrl,
  threads,
  checkpointsElsewhere,
}: {
  build: ServerBuild
  buildUrl: string
  threads: number
  /** The side thread checkpoints (server/side-thread.ts): the threads' connections never do. */
  checkpointsElsewhere: boolean
}) {
  const isPage = pageRouteMatcher(build)
  // Set here, after the main isolate has its heap: only threads started from now on get it.
  v8.setFlagsFromString(`--max-semi-space-size=${PAGE_SEMI_SPACE_MB}`)
  const pool = new Piscina<PageTask, PageAnswer>({
    // Through a CommonJS entry that import()s build/page-worker.js: see server/page-worker-entry.cjs.
    filename: new URL('./page-worker-entry.cjs', import.meta.url).href,
    workerData: { buildUrl, checkpointsElsewhere },
    minThreads: threads,
    maxThreads: threads,
    idleTimeout: Number.POSITIVE_INFINITY,
    // A page's loader may wait on the network (Stripe); the thread renders others meanwhile.
    concurrentTasksPerWorker: 4,
    // When the cores are busy, a write or a live event goes before a render: on Linux the render
    // threads run at niceness 10 (@napi-rs/nice, Piscina's optional dependency). ADR 29.
    niceIncrement: 10,
  })

  async function renderOnWorker(req: ExpressRequest, res: ExpressResponse, next: NextFunction) {
    if (req.method !== 'GET' || req.path.endsWith('.data')) return next()
    if (isApiRequest(req) ? !isMapRead(req.path) : !isPage(req.path)) return next()
    let url: string
    try {
      url = requestUrl(req)
    } catch {
      return next() // the router's own handler refuses what cannot be read
    }
    try {
      const slot = res.locals.route as { pattern?: string } | undefined
      const answer = await pool.run({
        url,
        headers: requestHeaders(req),
        requestId: res.locals.requestId as string,
        cspNonce: cspNonceOf(res),
        clientIp: req.ip ?? '',
        rateLimit: rateLimitNotice(res),
        timed: slot !== undefined,
        encoding: encodingFor(req),
      })
      if (slot && answer.pattern) slot.pattern = answer.pattern
      if (res.destroyed) return
      // Already encoded: the compression middleware lets it through.
      writeHead(res, answer.status, answer.statusText, answer.headers)
      res.end(
        answer.body
          ? Buffer.from(answer.body.buffer, answer.body.byteOffset, answer.body.byteLength)
          : undefined,
      )
    } catch (error) {
      next(error)
    }
  }

  return { renderOnWorker, close: () => pool.destroy() }
}
