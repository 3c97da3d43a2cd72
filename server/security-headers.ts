import type { NextFunction, Request, Response } from 'express'
import helmet from 'helmet'
import type { IncomingMessage, ServerResponse } from 'node:http'

/**
 * Security headers on every response; scripts run only with this request's nonce.
 * `checkoutOrigins`: where the plan form may redirect after its post (Stripe Checkout).
 */
export function securityHeaders(production: boolean, checkoutOrigins: string[] = []) {
  const nonce = (_req: IncomingMessage, res: ServerResponse) =>
    `'nonce-${(res as unknown as Response).locals.cspNonce}'`
  const pages = helmet({
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
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: 'same-origin' },
    xFrameOptions: { action: 'deny' },
    strictTransportSecurity: false,
  })
  // JSON answers run no script and show nothing: a fixed, stricter policy, no nonce to make.
  const json = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      reportOnly: !production,
      directives: { 'default-src': ["'none'"], 'frame-ancestors': ["'none'"] },
    },
    crossOriginEmbedderPolicy: false,
    referrerPolicy: { policy: 'same-origin' },
    xFrameOptions: { action: 'deny' },
    strictTransportSecurity: false,
  })
  return (req: Request, res: Response, next: NextFunction) => (isJsonPath(req.path) ? json : pages)(req, res, next)
}

const isJsonPath = (path: string) => path.startsWith('/v1/') || path === '/healthz' || path === '/mcp'
