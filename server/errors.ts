import type { NextFunction, Request, Response } from 'express'
import { logger } from '../app/lib/logger.server'
import { refuse, refuseTooLarge } from './guards'

/**
 * The last handler: whatever fails outside a route (body reading, the adapter, Remix itself)
 * answers in the one error shape, without a stack trace, and is logged as JSON.
 */
export function errorHandler(err: unknown, req: Request, res: Response, next: NextFunction) {
  void next
  const status =
    (err as { status?: unknown; statusCode?: unknown })?.status ??
    (err as { statusCode?: unknown })?.statusCode
  const clientError = typeof status === 'number' && status >= 400 && status < 500 ? status : null
  if (clientError)
    logger.info({ status: clientError, type: (err as { type?: string }).type }, 'request refused')
  else logger.error({ err }, 'unhandled error')
  if (res.headersSent) {
    res.destroy()
    return
  }
  if (clientError === 413) return refuseTooLarge(req, res)
  if (clientError) return refuse(req, res, clientError, 'bad_request', 'The request could not be read.')
  refuse(req, res, 500, 'internal', 'Something went wrong.')
}
