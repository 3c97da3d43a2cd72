import type { NextFunction, Request, Response } from 'express'
import { normalizePath } from '../app/http/abuse'
import type { ServerEnv } from '../app/lib/env.server'
import { logger } from '../app/lib/logger.server'

export const MAX_BODY_BYTES = 1024 * 1024
/** A project import (CONTRACT §8) is the one body allowed to be bigger. */
export const MAX_IMPORT_BODY_BYTES = 10 * 1024 * 1024
const IMPORT_PATH = '/v1/projects/import'
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])
/** What a web `Request` can carry; TRACE, CONNECT and the like never reach the app. */
const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'])
/** Stripe calls this from its own servers and signs each event instead. */
const ORIGIN_EXEMPT = new Set(['/v1/subscription/webhook'])

/**
 * `req.protocol`, which asks the trusted-proxy check (an address parse) on every call; without an
 * X-Forwarded-Proto header there is nothing for that check to decide.
 */
export function protocolOf(req: Request): string {
  if (req.headers['x-forwarded-proto'] !== undefined) return req.protocol
  return (req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http'
}

const apiRequests = new WeakMap<Request, boolean>()
/** Whether the router will treat the request as one of the JSON API (case, dots and slashes as it sees them). Worked out once per request. */
export function isApiRequest(req: Request): boolean {
  let api = apiRequests.get(req)
  if (api === undefined) {
    const path = normalizePath(req.path)
    api = path === '/v1' || path.startsWith('/v1/') || path === '/mcp'
    apiRequests.set(req, api)
  }
  return api
}

/** The largest body this request may carry: 10 MiB for a project import, 1 MiB for everything else. */
export function bodyLimitOf(req: Request): number {
  return req.method === 'POST' && normalizePath(req.path) === IMPORT_PATH
    ? MAX_IMPORT_BODY_BYTES
    : MAX_BODY_BYTES
}

/** A refusal's body: the JSON error shape under /v1 (and for JSON clients), else plain text. */
function refusalOf(req: Request, code: string, message: string) {
  return isApiRequest(req) || req.accepts(['html', 'json']) === 'json'
    ? { type: 'application/json; charset=utf-8', text: JSON.stringify({ error: code, message }) }
    : { type: 'text/plain; charset=utf-8', text: message }
}

/** Answers a refusal made outside the app: the JSON error shape under /v1 (and for JSON clients), else plain text. */
export function refuse(req: Request, res: Response, status: number, code: string, message: string) {
  const { type, text } = refusalOf(req, code, message)
  res.status(status).type(type).send(text)
}

/** How much of an unwanted body is read and dropped after the answer before the connection is cut. */
const LINGER_BYTES = 8 * MAX_BODY_BYTES
/**
 * How long the sender may stay silent, and how long it may go on in all, before the connection is
 * cut (the total stays within the shutdown's grace period, see closeWithGrace in server/index.ts).
 */
const LINGER_IDLE_MS = 2000
const LINGER_MAX_MS = 10_000
/** How long a cut sender has to read the answer before its connection is reset. */
const CUT_GRACE_MS = 1000

/**
 * Refuses a request whose body will not be read, with a lingering close (ADR 7). The answer goes
 * out whole at once, but the response is ended only when the rest of the body has been read and
 * dropped: ending it is what makes Node close the connection (`Connection: close`), and closing a
 * socket with unread input sends a reset, on which a client still writing its body (Node's fetch)
 * fails with EPIPE before it reads the answer. A sender that goes on past LINGER_BYTES (or twice the
 * body's limit), stays silent for two seconds or takes more than ten in all is cut off.
 */
export function refuseUnread(req: Request, res: Response, status: number, code: string, message: string) {
  if (req.complete) return refuse(req, res, status, code, message)
  const { type, text } = refusalOf(req, code, message)
  res
    .status(status)
    .type(type)
    .set({ 'Content-Length': String(Buffer.byteLength(text)), Connection: 'close' })
  res.write(text, () => {
    // The log line tells a cut connection from one the client closed after reading the answer.
    res.locals.answerSent = true
  })
  const lingerBytes = Math.max(LINGER_BYTES, 2 * bodyLimitOf(req))
  let dropped = 0
  let idle: NodeJS.Timeout | undefined
  const stop = () => {
    clearTimeout(idle)
    clearTimeout(deadline)
    req.off('data', onData)
  }
  const cut = () => {
    stop()
    // Nothing more is read. A reset now could overtake the answer still unread in the client's
    // buffers (seen under load: the client got the reset and never the 413), so the answer is
    // followed by a FIN first, and the reset comes only after CUT_GRACE_MS.
    req.pause()
    res.locals.answerSent = false
    req.socket.end()
    setTimeout(() => req.socket.destroy(), CUT_GRACE_MS).unref()
  }
  const deadline = setTimeout(cut, LINGER_MAX_MS).unref()
  const waitForMore = () => {
    clearTimeout(idle)
    idle = setTimeout(cut, LINGER_IDLE_MS).unref()
  }
  const onData = (chunk: Buffer) => {
    dropped += chunk.length
    if (dropped > lingerBytes) cut()
    else waitForMore()
  }
  req.on('data', onData)
  req.once('end', () => {
    stop()
    res.end()
  })
  // The client hung up, most often once it had the answer.
  res.once('close', stop)
  waitForMore()
  req.resume()
}

export const refuseTooLarge = (req: Request, res: Response) =>
  refuseUnread(
    req,
    res,
    413,
    'too_large',
    `The request body is larger than ${bodyLimitOf(req) / (1024 * 1024)} MB.`,
  )

/** The warning logged when a write's Origin is neither BASE_URL nor the request's own address. */
export const originMismatch = (origin: string, baseUrl: string) =>
  `Origin ${origin} does not match BASE_URL ${baseUrl}: set BASE_URL to the address users open`

/**
 * Checks made before routing: unknown methods (405), oversized bodies by their declared length (413),
 * Remix data requests to the JSON API (404, they would not answer JSON) and cross-site writes (403).
 * SameSite=Lax cookies already stop most cross-site posts; the Origin check closes the rest. It runs
 * before the log-in limits, so a refused request never spends an account's log-in attempts.
 */
export function requestGuards(env: ServerEnv) {
  const allowedOrigin = new URL(env.BASE_URL).origin
  return (req: Request, res: Response, next: NextFunction) => {
    if (!KNOWN_METHODS.has(req.method)) {
      res.set('Allow', [...KNOWN_METHODS].join(', '))
      return refuse(req, res, 405, 'method_not_allowed', `${req.method} is not allowed.`)
    }
    const length = Number(req.headers['content-length'] ?? 0)
    if (length > bodyLimitOf(req)) return refuseTooLarge(req, res)
    // Remix's data requests (`/x.data`, `?_data=`) would answer in its own formats, not JSON.
    if (
      isApiRequest(req) &&
      (/\.data\/*$/i.test(req.path) || new URLSearchParams(req.url.split('?')[1] ?? '').has('_data'))
    ) {
      return refuse(req, res, 404, 'not_found', 'Not found.')
    }
    // A Bearer token is sent by a script, not by a browser on its own: no cookie counts then (CONTRACT §10).
    const bearer = isApiRequest(req) && /^bearer\s/i.test(req.headers.authorization ?? '')
    if (!SAFE_METHODS.has(req.method) && !ORIGIN_EXEMPT.has(req.path) && !bearer) {
      const origin = req.headers.origin
      // BASE_URL first: a reverse proxy may rewrite Host (nginx sends its upstream's address by
      // default), the public address the operator configured stays the same. The request's own
      // Host still counts for a server reached directly under another name.
      const crossOrigin =
        origin !== undefined &&
        origin !== allowedOrigin &&
        origin !== `${protocolOf(req)}://${req.headers.host}`
      // A browser that sends no Origin still says where the request comes from.
      const crossSite = origin === undefined && req.headers['sec-fetch-site'] === 'cross-site'
      if (crossOrigin || crossSite) {
        // A misconfigured proxy looks exactly like a forged request: the log says which, and how to fix it.
        if (crossOrigin) logger.warn({ origin, baseUrl: env.BASE_URL }, originMismatch(origin, env.BASE_URL))
        else
          logger.warn('Cross-site request refused: the browser sent Sec-Fetch-Site: cross-site and no Origin')
        return refuse(req, res, 403, 'cross_origin', 'Cross-site requests are not allowed.')
      }
    }
    next()
  }
}
