import { createRequestHandler, type AppLoadContext, type ServerBuild } from 'react-router'
import { createReadableStreamFromReadable, writeReadableStreamToWritable } from '@react-router/node'
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from 'express'
import type { OutgoingHttpHeaders } from 'node:http'
import { compressAnswer } from './compress-answer'
import { sinkPipeOf } from '../app/features/live/live-stream.server'
import { isApiRequest, protocolOf, refuse } from './guards'

type Options = {
  build: ServerBuild | (() => Promise<ServerBuild>)
  mode: string
  /** The public address (BASE_URL): a page's form may be sent from it whatever Host a proxy passes on. */
  baseUrl: string
  getLoadContext: (req: ExpressRequest, res: ExpressResponse) => AppLoadContext
}

/** Node's header object as one record (repeated headers joined, as HTTP allows), to make Headers in one go. */
export function requestHeaders(req: ExpressRequest): Record<string, string> {
  const record: Record<string, string> = {}
  for (const name in req.headers) {
    const value = req.headers[name]
    if (value !== undefined) record[name] = Array.isArray(value) ? value.join(', ') : value
  }
  return record
}

/** The request's full address as the router sees it; throws when the web platform cannot read it (a malformed Host). */
export function requestUrl(req: ExpressRequest): string {
  const url = `${protocolOf(req)}://${req.headers.host ?? 'localhost'}${req.originalUrl}`
  new URL(url)
  return url
}

/**
 * Why a sent answer's signal ends: one shared AbortError, where `abort()` would make a new one,
 * with its stack, for every page (a client that leaves early still gets a fresh one).
 */
const ANSWER_SENT = new DOMException('The answer was sent', 'AbortError')

/**
 * The web Request Remix sees. The body is the one `readBody` already read and measured; a
 * request without one passes its (empty) stream. A page's signal is aborted when its connection
 * closes: if the client went away, the render stops; if the page was sent, Remix drops the
 * 5-second timer that would otherwise keep the page's data alive (a board's few megabytes per
 * load). A JSON call runs to its end, so no abort signal is made for it.
 */
function toWebRequest(req: ExpressRequest, res: ExpressResponse): Request {
  const url = requestUrl(req)
  const init: RequestInit & { duplex?: 'half' } = {
    method: req.method,
    headers: new Headers(requestHeaders(req)),
  }
  if (!isApiRequest(req)) {
    const controller = new AbortController()
    res.on('close', () => controller.abort(res.writableFinished ? ANSWER_SENT : undefined))
    init.signal = controller.signal
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    if (Buffer.isBuffer(req.body))
      init.body = new Uint8Array(req.body.buffer as ArrayBuffer, req.body.byteOffset, req.body.length)
    else {
      init.body = createReadableStreamFromReadable(req)
      init.duplex = 'half'
    }
  }
  return new Request(url, init)
}

/** Answers sent as they are made: a page (React streams it), a live stream, the assistant's draft. Others are sent whole. */
const streamed = (type: string | null) =>
  type !== null &&
  (type.startsWith('text/html') ||
    type.startsWith('text/event-stream') ||
    type.startsWith('application/x-ndjson'))

/** The answer's headers for writeHead, repeated ones (Set-Cookie) kept apart. */
export function outgoingHeaders(entries: Iterable<[string, string]>): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = {}
  for (const [name, value] of entries) {
    const before = headers[name]
    headers[name] =
      before === undefined ? value : Array.isArray(before) ? [...before, value] : [String(before), value]
  }
  return headers
}

/** Status line and headers; on-headers (under compression) reads the headers only where Node's own overloads put them. */
export function writeHead(
  res: ExpressResponse,
  status: number,
  statusText: string,
  headers: OutgoingHttpHeaders,
) {
  if (statusText) res.writeHead(status, statusText, headers)
  else res.writeHead(status, headers)
}

async function sendResponse(req: ExpressRequest, res: ExpressResponse, response: Response) {
  const type = response.headers.get('content-type')
  if (response.body && streamed(type)) {
    writeHead(res, response.status, response.statusText, outgoingHeaders(response.headers))
    // A live stream: each event is one write to the socket, without a web stream's reads between.
    const live = sinkPipeOf(response.body)
    if (live) return live.attach({ send: (bytes) => res.write(bytes), close: () => res.end() })
    // Registered before the writer's own listener, so it is known when the writer gives up.
    let clientLeft = false
    res.once('close', () => (clientLeft = !res.writableFinished))
    try {
      await writeReadableStreamToWritable(response.body, res)
    } catch (error) {
      // A client that leaves mid-answer (a closed draft preview) is no failure of the server's.
      if (!clientLeft) throw error
    }
    return
  }
  // One write with a Content-Length: no chunked framing, and compression sees the size (small answers stay plain).
  let body: Buffer | undefined = response.body ? Buffer.from(await response.arrayBuffer()) : undefined
  const headers = outgoingHeaders(response.headers)
  if (body && res.locals.answersWhole) body = await compressAnswer(req, headers, body)
  if (body && headers['content-length'] === undefined) headers['content-length'] = body.length
  writeHead(res, response.status, response.statusText, headers)
  res.end(body)
}

/**
 * Express → Remix, as `@remix-run/express` does, except that the body comes from `readBody`
 * (that package re-reads the request stream, which is gone by then), that a request the web
 * platform cannot represent (a malformed Host, say) is a 400, not a 500, and that the headers
 * cross over once each way.
 */
export function remixHandler({ build, mode, baseUrl, getLoadContext }: Options) {
  // The router refuses (400) a page action whose Origin is not the request's own address, and a
  // proxy that rewrites Host makes that the upstream's. `allowedActionOrigins`, set at run time as
  // the router documents it, lets BASE_URL's host through as well; requestGuards has already
  // refused any other site (the router compares hosts only, the guard whole origins).
  const withPublicHost = (serverBuild: ServerBuild): ServerBuild => ({
    ...serverBuild,
    allowedActionOrigins: [new URL(baseUrl).host],
  })
  const handleRequest = createRequestHandler(
    typeof build === 'function' ? async () => withPublicHost(await build()) : withPublicHost(build),
    mode,
  )
  return async (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    let request: Request
    try {
      request = toWebRequest(req, res)
    } catch {
      return refuse(req, res, 400, 'bad_request', 'The request could not be read.')
    }
    try {
      await sendResponse(req, res, await handleRequest(request, getLoadContext(req, res)))
    } catch (error) {
      next(error)
    }
  }
}
