import {
  createReadableStreamFromReadable,
  createRequestHandler,
  writeReadableStreamToWritable,
  type AppLoadContext,
  type ServerBuild,
} from '@remix-run/node'
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from 'express'
import { refuse } from './guards'

type Options = {
  build: ServerBuild | (() => Promise<ServerBuild>)
  mode: string
  getLoadContext: (req: ExpressRequest, res: ExpressResponse) => AppLoadContext
}

function headersOf(req: ExpressRequest): Headers {
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one)
  }
  return headers
}

/**
 * The web Request Remix sees. The body is the one `readBody` already read and measured; a
 * request without one passes its (empty) stream. Aborted when the client goes away.
 */
function toWebRequest(req: ExpressRequest, res: ExpressResponse): Request {
  const url = new URL(`${req.protocol}://${req.headers.host ?? 'localhost'}${req.originalUrl}`)
  const controller = new AbortController()
  res.on('close', () => {
    if (!res.writableFinished) controller.abort()
  })
  const init: RequestInit & { duplex?: 'half' } = {
    method: req.method,
    headers: headersOf(req),
    signal: controller.signal,
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

/**
 * Express → Remix, as `@remix-run/express` does, except that the body comes from `readBody`
 * (that package re-reads the request stream, which is gone by then) and that a request the
 * web platform cannot represent (a malformed Host, say) is a 400, not a 500.
 */
export function remixHandler({ build, mode, getLoadContext }: Options) {
  const handleRequest = createRequestHandler(build, mode)
  return async (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    let request: Request
    try {
      request = toWebRequest(req, res)
    } catch {
      return refuse(req, res, 400, 'bad_request', 'The request could not be read.')
    }
    try {
      const response = await handleRequest(request, getLoadContext(req, res))
      if (response.statusText) res.statusMessage = response.statusText
      res.status(response.status)
      for (const [name, value] of response.headers.entries()) res.append(name, value)
      if (response.body) await writeReadableStreamToWritable(response.body, res)
      else res.end()
    } catch (error) {
      next(error)
    }
  }
}
