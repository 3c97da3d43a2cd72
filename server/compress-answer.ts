import compressible from 'compressible'
import type { Request, Response } from 'express'
import type { OutgoingHttpHeaders } from 'node:http'
import { promisify } from 'node:util'
import zlib from 'node:zlib'
import { chooseEncoding, type Encoding } from '../app/features/map/bundle-encoding.server'
import { brotliOptionsFor } from '../app/lib/brotli.server'

/** Below this an answer goes plain: compressing would save less than the framing costs (compression's own default). */
const THRESHOLD_BYTES = 1024
const brotli = promisify(zlib.brotliCompress)
const gzip = promisify(zlib.gzip)
const BROTLI_QUALITY = 3
const GZIP_OPTIONS = { level: 3 }

/** The encoding this client gets: brotli first, as the `compression` middleware prefers; null: none. */
export const encodingFor = (req: Request): Encoding | null =>
  chooseEncoding(req.get('accept-encoding') ?? null)

/**
 * How a whole answer goes, decided as the `compression` middleware would (same type filter,
 * threshold and Vary): the encoding to compress it with, or null to send it as it is. Already
 * encoded bodies (the project bundle) and tiny ones go as they are.
 */
function encodingOfAnswer(
  headers: OutgoingHttpHeaders,
  body: Uint8Array,
  method: string,
  accepted: Encoding | null,
): Encoding | null {
  const type = headers['content-type']
  if (typeof type !== 'string' || !compressible(type) || headers['content-encoding'] !== undefined)
    return null
  if (/\bno-transform\b/.test(String(headers['cache-control'] ?? ''))) return null
  headers.vary = headers.vary ? `${String(headers.vary)}, Accept-Encoding` : 'Accept-Encoding'
  if (body.length < THRESHOLD_BYTES || method === 'HEAD') return null
  return accepted
}

function encoded<T extends Uint8Array>(headers: OutgoingHttpHeaders, encoding: Encoding, body: T): T {
  headers['content-encoding'] = encoding
  headers['content-length'] = body.length
  return body
}

/**
 * A whole JSON answer compressed without wrapping the response of every call to get there: the
 * API's answers are complete before they are sent, so their size and type are known. Returns the
 * bytes to send, setting the headers.
 */
export async function compressAnswer(
  req: Request,
  headers: OutgoingHttpHeaders,
  body: Buffer,
): Promise<Buffer> {
  const encoding = encodingOfAnswer(headers, body, req.method, encodingFor(req))
  if (!encoding) return body
  return encoded(
    headers,
    encoding,
    encoding === 'br'
      ? await brotli(body, brotliOptionsFor(body.length, BROTLI_QUALITY))
      : await gzip(body, GZIP_OPTIONS),
  )
}

/**
 * The same for a page rendered on a page thread, compressed there: the thread runs at a low
 * priority, where blocking costs nobody, and the main thread then only writes a tenth of the bytes.
 */
export function compressAnswerSync(
  headers: OutgoingHttpHeaders,
  body: Uint8Array,
  method: string,
  accepted: Encoding | null,
): Uint8Array {
  const encoding = encodingOfAnswer(headers, body, method, accepted)
  if (!encoding) return body
  return encoded(
    headers,
    encoding,
    encoding === 'br'
      ? zlib.brotliCompressSync(body, brotliOptionsFor(body.length, BROTLI_QUALITY))
      : zlib.gzipSync(body, GZIP_OPTIONS),
  )
}

/** Whether the `compression` middleware should wrap this request: pages and files yes, the API no (see compressAnswer). */
export const wrappedByCompression = (res: Response) => !res.locals.answersWhole
