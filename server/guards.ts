import type { NextFunction, Request, Response } from 'express'
import type { ServerEnv } from '../app/utils/env.server'

export const MAX_BODY_BYTES = 1024 * 1024
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])
/** Stripe calls this from its own servers and signs each event instead. */
const ORIGIN_EXEMPT = new Set(['/v1/subscription/webhook'])

function refuse(req: Request, res: Response, status: number, code: string, message: string) {
  if (req.path.startsWith('/v1/') || req.accepts(['html', 'json']) === 'json') {
    res.status(status).json({ error: code, message })
  } else {
    res.status(status).type('text/plain').send(message)
  }
}

/**
 * Checks made before routing: oversized bodies (413) and cross-site writes (403).
 * SameSite=Lax cookies already stop most cross-site posts; the Origin check closes the rest.
 */
export function requestGuards(env: ServerEnv) {
  const allowedOrigin = new URL(env.BASE_URL).origin
  return (req: Request, res: Response, next: NextFunction) => {
    const length = Number(req.headers['content-length'] ?? 0)
    if (length > MAX_BODY_BYTES)
      return refuse(req, res, 413, 'too_large', 'The request body is larger than 1 MB.')
    if (!SAFE_METHODS.has(req.method) && !ORIGIN_EXEMPT.has(req.path)) {
      const origin = req.headers.origin
      if (origin !== undefined) {
        const sameHost = `${req.protocol}://${req.headers.host}`
        if (origin !== allowedOrigin && origin !== sameHost) {
          return refuse(req, res, 403, 'cross_origin', 'Cross-site requests are not allowed.')
        }
      }
    }
    next()
  }
}
