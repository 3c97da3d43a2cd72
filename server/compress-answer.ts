import compressible from 'compressible'
import type { Request, Response } from 'express'
import { promisify } from 'node:util'
import zlib from 'node:zlib'

/** Below this an answer goes plain: compressing would save less than the framing costs (compression's own default). */
const THRESHOLD_BYTES = 1024
const brotli = promisify(zlib.brotliCompress)
const gzip = promisify(zlib.gzip)
const BROTLI_OPTIONS = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 3 } }
const GZIP_OPTIONS = { level: 3 }

/**
 * A whole JSON answer compressed as the `compression` middleware would (same levels, threshold and
 * negotiation), without wrapping the response of every call to get there: the API's answers are
 * complete before they are sent, so their size and type are known. Already encoded bodies (the
 * project bundle) and tiny ones go as they are. Returns the bytes to send, setting the headers.
 */
export async function compressAnswer(req: Request, headers: Record<string, unknown>, body: Buffer): Promise<Buffer> {
  const type = headers['content-type']
  if (typeof type !== 'string' || !compressible(type) || headers['content-encoding'] !== undefined) return body
  if (/\bno-transform\b/.test(String(headers['cache-control'] ?? ''))) return body
  headers.vary = headers.vary ? `${String(headers.vary)}, Accept-Encoding` : 'Accept-Encoding'
  if (body.length < THRESHOLD_BYTES || req.method === 'HEAD') return body
  const encoding = req.acceptsEncodings('br', 'gzip', 'identity')
  if (encoding !== 'br' && encoding !== 'gzip') return body
  const compressed = encoding === 'br' ? await brotli(body, BROTLI_OPTIONS) : await gzip(body, GZIP_OPTIONS)
  headers['content-encoding'] = encoding
  headers['content-length'] = compressed.length
  return compressed
}

/** Whether the `compression` middleware should wrap this request: pages and files yes, the API no (see compressAnswer). */
export const wrappedByCompression = (res: Response) => !res.locals.answersWhole
