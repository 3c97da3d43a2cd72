import Negotiator from 'negotiator'
import { promisify } from 'node:util'
import zlib from 'node:zlib'
import { brotliOptionsFor } from '~/lib/brotli.server'

export type Encoding = 'br' | 'gzip'
export type EncodedBody = { body: Uint8Array<ArrayBuffer>; encoding: Encoding | null }

/** brotli first (smaller), then gzip, as the client's `Accept-Encoding` allows; null: send it plain. */
export function chooseEncoding(acceptEncoding: string | null): Encoding | null {
  const acceptable = new Negotiator({
    headers: { 'accept-encoding': acceptEncoding ?? undefined },
  }).encodings(['br', 'gzip'])
  return acceptable.includes('br') ? 'br' : acceptable.includes('gzip') ? 'gzip' : null
}

const brotli = promisify(zlib.brotliCompress)
const gzip = promisify(zlib.gzip)

/**
 * Compressed once per map version, so a good ratio is worth its one-off cost (tens of ms on the
 * libuv pool for a 4,000-card map, not on the event loop).
 */
export async function compress(bytes: Uint8Array, encoding: Encoding): Promise<Uint8Array<ArrayBuffer>> {
  const out =
    encoding === 'br'
      ? await brotli(bytes, brotliOptionsFor(bytes.byteLength, 6, zlib.constants.BROTLI_MODE_TEXT))
      : await gzip(bytes, { level: 6 })
  return new Uint8Array(out.buffer as ArrayBuffer, out.byteOffset, out.byteLength)
}
