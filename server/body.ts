import type { NextFunction, Request, Response } from 'express'
import { AsyncResource } from 'node:async_hooks'
import { bodyLimitOf, refuse, refuseTooLarge, refuseUnread } from './guards'

/** A body is coming when the request says so: a length above zero, or a transfer coding (chunked). */
function hasBody(req: Request): boolean {
  const length = req.headers['content-length']
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0')
}

/**
 * Reads every request body into memory before routing (`req.body`, a Buffer), counting the bytes
 * that actually arrive: a chunked body without Content-Length is refused (413) the moment it passes
 * its limit (1 MB; 10 MB for a project import, see bodyLimitOf), and the connection is cut soon
 * after (see refuseUnread). body-parser would read such a body to its end before answering, so an
 * endless one would be read for as long as the sender likes. Compressed bodies are refused (415).
 * The Remix adapter hands the bytes on unchanged, so the Stripe signature still covers them.
 */
export function readBody(req: Request, res: Response, next: NextFunction) {
  if (req.method === 'GET' || req.method === 'HEAD' || !hasBody(req)) return next()
  const encoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase()
  if (encoding !== 'identity') {
    return refuseUnread(req, res, 415, 'unsupported_encoding', 'Compressed request bodies are not accepted.')
  }
  const limit = bodyLimitOf(req)
  const chunks: Buffer[] = []
  let size = 0
  let settled = false
  const settle = () => {
    settled = true
    req.off('data', onData)
    req.off('end', onEnd)
    req.off('error', onError)
  }
  // One async resource per request (AsyncResource.bind makes one per callback, through a
  // deprecation wrapper that showed in the profile of every write).
  const resource = new AsyncResource('storymap.body')
  const inRequest =
    <A extends unknown[]>(fn: (...args: A) => void) =>
    (...args: A) =>
      resource.runInAsyncScope(fn, null, ...args)
  const onData = inRequest((chunk: Buffer) => {
    size += chunk.length
    if (size > limit) {
      settle()
      return refuseTooLarge(req, res)
    }
    chunks.push(chunk)
  })
  // Bound to this request's async context, so log lines further down keep its request id.
  const onEnd = inRequest(() => {
    settle()
    req.body = Buffer.concat(chunks, size)
    next()
  })
  const onError = inRequest(() => {
    if (settled) return
    settle()
    if (!res.headersSent) refuse(req, res, 400, 'bad_request', 'The request body could not be read.')
  })
  req.on('data', onData)
  req.on('end', onEnd)
  req.on('error', onError)
}
