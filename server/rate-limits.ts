import type { NextFunction, Request, RequestHandler, Response } from 'express'
import { ipKeyGenerator, rateLimit, type Options } from 'express-rate-limit'
import {
  emailKey,
  LIMIT_POLICIES,
  limitedRequestOf,
  tooManyMessage,
  type LimitedAction,
  type LimitedRequest,
} from '../app/http/abuse'
import { TOKEN_REQUESTS_PER_MINUTE } from '../app/features/automation/api-tokens'
import { getSessionAccount, SESSION_COOKIE } from '../app/features/accounts/session.server'
import { sha256 } from '../app/lib/crypto.server'
import type { ServerEnv } from '../app/lib/env.server'
import { logger } from '../app/lib/logger.server'
import { refuse } from './guards'

/** What a public form's action learns when its caller is over a limit (load context `rateLimit`). */
export type RateLimitNotice = { retryAfterSeconds: number; message: string }

type Locals = { limited?: LimitedRequest; accountKey?: string | null; rateLimit?: RateLimitNotice }
const locals = (res: Response) => res.locals as Locals

/** The body `readBody` kept, as fields: JSON objects, url-encoded and multipart forms. First value wins, as in FormData.get. */
async function bodyFields(req: Request): Promise<Record<string, unknown>> {
  if (!Buffer.isBuffer(req.body) || req.body.length === 0) return {}
  const type = req.headers['content-type'] ?? ''
  try {
    if (/json/i.test(type)) {
      const value: unknown = JSON.parse(req.body.toString('utf8'))
      return value && typeof value === 'object' && !Array.isArray(value)
        ? (value as Record<string, unknown>)
        : {}
    }
    const form = await new Response(
      new Uint8Array(req.body.buffer as ArrayBuffer, req.body.byteOffset, req.body.length),
      { headers: { 'Content-Type': type } },
    ).formData()
    const fields: Record<string, unknown> = {}
    for (const [name, value] of form) if (!(name in fields)) fields[name] = value
    return fields
  } catch {
    return {}
  }
}

/** Per-account key: the signed-in account, or the e-mail address the attempt is about. */
async function accountKeyOf(req: Request, limited: LimitedRequest, fields: Record<string, unknown>) {
  if (limited.accountFromSession) {
    const cookie = req.headers.cookie
    if (!cookie) return null
    const account = await getSessionAccount(new Request('http://local/', { headers: { Cookie: cookie } }))
    return account ? `account:${account.id}` : null
  }
  if (limited.accountFromPath !== undefined) return emailKey(limited.accountFromPath)
  return limited.accountField ? emailKey(fields[limited.accountField]) : null
}

function retryAfterSeconds(req: Request): number {
  const reset = (req as Request & { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime
  return reset ? Math.max(1, Math.ceil((reset.getTime() - Date.now()) / 1000)) : 60
}

/** A log-in counts only when it fails: success is the session cookie being set. */
function startedSession(_req: Request, res: Response): boolean {
  const header = res.getHeader('set-cookie')
  const cookies = Array.isArray(header) ? header : header === undefined ? [] : [String(header)]
  return cookies.some((c) => c.startsWith(`${SESSION_COOKIE}=`) && !c.startsWith(`${SESSION_COOKIE}=;`))
}

/** Over the limit: JSON under /v1; a page's action is told and answers in its form. */
function tooMany(req: Request, res: Response, next: NextFunction) {
  const seconds = retryAfterSeconds(req)
  const message = tooManyMessage(seconds)
  const { limited, accountKey } = locals(res)
  logger.warn({ action: limited?.action, perAccount: Boolean(accountKey) }, 'rate limit reached')
  res.set('Retry-After', String(seconds)) // kept on the answer whoever writes it
  if (limited?.surface === 'form') {
    locals(res).rateLimit = { retryAfterSeconds: seconds, message }
    return next()
  }
  refuse(req, res, 429, 'too_many_attempts', message)
}

/**
 * Rate limits on log-in, sign-up, reset request, contact and invites (LIMIT_POLICIES), per IP
 * address and per account, for the /v1 calls and the page forms alike. `RATE_LIMIT=off` turns them off.
 * Counters live in memory: one process, and a restart forgives everyone.
 */
export function rateLimits(env: ServerEnv): RequestHandler {
  if (env.RATE_LIMIT === 'off') return (_req, _res, next) => next()
  const warn = (error: unknown, message?: string) => logger.warn({ err: error }, message ?? 'rate limiter')
  const limiters = new Map<LimitedAction, { ip: RequestHandler; account: RequestHandler }>()
  for (const [action, policy] of Object.entries(LIMIT_POLICIES) as [
    LimitedAction,
    (typeof LIMIT_POLICIES)[LimitedAction],
  ][]) {
    const common: Partial<Options> = {
      windowMs: policy.windowMs,
      standardHeaders: 'draft-8',
      legacyHeaders: false,
      skipSuccessfulRequests: policy.failuresOnly,
      requestWasSuccessful: startedSession,
      handler: tooMany,
      logger: { error: warn, warn },
    }
    limiters.set(action, {
      ip: rateLimit({
        ...common,
        identifier: `${action}-per-ip`,
        limit: policy.perIp,
        keyGenerator: (req) => ipKeyGenerator(req.ip ?? 'unknown'),
      }),
      account: rateLimit({
        ...common,
        identifier: `${action}-per-account`,
        limit: policy.perAccount,
        skip: (_req, res) => !locals(res).accountKey,
        keyGenerator: (_req, res) => locals(res).accountKey ?? '',
      }),
    })
  }
  return async (req, res, next) => {
    const limited = limitedRequestOf(req.method, req.path)
    if (!limited) return next()
    try {
      const fields = await bodyFields(req)
      if (limited.intents && !limited.intents.includes(String(fields.intent ?? ''))) return next()
      locals(res).limited = limited
      locals(res).accountKey = await accountKeyOf(req, limited, fields)
    } catch (error) {
      return next(error)
    }
    const { ip, account } = limiters.get(limited.action)!
    ip(req, res, (error?: unknown) => (error ? next(error) : account(req, res, next)))
  }
}

/** For the load context: the notice a public form's action must show instead of acting. */
export function rateLimitNotice(res: Response): RateLimitNotice | null {
  return locals(res).rateLimit ?? null
}

/**
 * 120 requests a minute per API token (CONTRACT §10), keyed by the secret's hash so no secret is
 * kept in memory. A bad token counts too (its own bucket); it is refused by the route anyway.
 */
export function tokenRateLimit(env: ServerEnv): RequestHandler {
  if (env.RATE_LIMIT === 'off') return (_req, _res, next) => next()
  const limiter = rateLimit({
    windowMs: 60_000,
    limit: TOKEN_REQUESTS_PER_MINUTE,
    identifier: 'api-token',
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    keyGenerator: (req) => `token:${sha256(bearerOf(req) ?? '')}`,
    handler: (req, res) => {
      const seconds = retryAfterSeconds(req)
      res.set('Retry-After', String(seconds))
      refuse(req, res, 429, 'too_many_requests', tooManyMessage(seconds))
    },
    logger: { error: (error: unknown) => logger.warn({ err: error }, 'rate limiter'), warn: () => undefined },
  })
  return (req, res, next) => (bearerOf(req) === null ? next() : limiter(req, res, next))
}

function bearerOf(req: Request): string | null {
  if (!req.path.startsWith('/v1/') && req.path !== '/mcp') return null
  const match = /^bearer\s+(\S+)/i.exec(req.headers.authorization ?? '')
  return match ? match[1] : null
}
