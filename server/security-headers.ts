import type { NextFunction, Request, Response } from 'express'
import helmet from 'helmet'
import crypto from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'

/** The nonce only a page needs (its scripts and CSP): made on first use, not for every JSON answer. */
export function cspNonceOf(res: Response): string {
  return ((res.locals.cspNonce as string | undefined) ??= crypto.randomBytes(16).toString('base64'))
}

type HelmetOptions = Parameters<typeof helmet>[0]

/**
 * The headers a helmet middleware sets when they are the same for every request: it runs once
 * against a stand-in response and its headers are replayed, instead of a dozen middleware calls
 * on every answer.
 */
function fixedHeadersOf(options: HelmetOptions): [string, string][] {
  const headers = new Map<string, string>()
  const stand = {
    setHeader: (name: string, value: string) => headers.set(name, value),
    removeHeader: (name: string) => headers.delete(name),
  }
  helmet(options)(stand as unknown as IncomingMessage, stand as unknown as ServerResponse, () => undefined)
  return [...headers]
}

const common = {
  crossOriginEmbedderPolicy: false,
  referrerPolicy: { policy: 'same-origin' },
  xFrameOptions: { action: 'deny' },
  strictTransportSecurity: false,
} satisfies HelmetOptions

/**
 * Security headers on every response; scripts run only with this request's nonce.
 * `checkoutOrigins`: where the plan form may redirect after its post (Stripe Checkout).
 */
export function securityHeaders(production: boolean, checkoutOrigins: string[] = []) {
  const nonce = (_req: IncomingMessage, res: ServerResponse) =>
    `'nonce-${cspNonceOf(res as unknown as Response)}'`
  const pages = helmet({
    ...common,
    contentSecurityPolicy: {
      useDefaults: false,
      reportOnly: !production,
      directives: {
        'default-src': ["'self'"],
        'script-src': ["'self'", "'strict-dynamic'", nonce],
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:'],
        'font-src': ["'self'", 'data:'],
        'connect-src': production ? ["'self'"] : ["'self'", 'ws:'],
        'form-action': ["'self'", ...checkoutOrigins],
        'frame-ancestors': ["'none'"],
        'base-uri': ["'self'"],
        'object-src': ["'none'"],
      },
    },
  })
  // JSON answers run no script and show nothing: a fixed, stricter policy, no nonce to make.
  const json = fixedHeadersOf({
    ...common,
    contentSecurityPolicy: {
      useDefaults: false,
      reportOnly: !production,
      directives: { 'default-src': ["'none'"], 'frame-ancestors': ["'none'"] },
    },
  })
  return (req: Request, res: Response, next: NextFunction) => {
    if (!isJsonPath(req.path)) return pages(req, res, next)
    for (const [name, value] of json) res.setHeader(name, value)
    next()
  }
}

const isJsonPath = (path: string) => path.startsWith('/v1/') || path === '/healthz' || path === '/mcp'
