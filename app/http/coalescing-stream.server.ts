import { Transform } from 'node:stream'

const CHUNK_BYTES = 64 * 1024

/**
 * React writes a page in chunks of about 2 KB; a 4,000-card board is ~2,400 of them, and each
 * one crossed the web stream, the compressor and a socket write on its own. This joins what
 * is written in one go into chunks of 64 KB, and passes on the rest at the end of the tick, so
 * a streamed part of the page is never held back.
 */
export function createCoalescingStream() {
  let pending: Buffer[] = []
  let pendingBytes = 0
  let scheduled = false
  const stream = new Transform({
    readableHighWaterMark: CHUNK_BYTES * 4,
    transform(chunk: Buffer | string, _encoding, done) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk
      pending.push(bytes)
      pendingBytes += bytes.length
      if (pendingBytes >= CHUNK_BYTES) flush()
      else if (!scheduled) {
        scheduled = true
        setImmediate(flush)
      }
      done()
    },
    final(done) {
      flush()
      done()
    },
  })
  function flush() {
    scheduled = false
    if (pendingBytes === 0) return
    const joined = pending.length === 1 ? pending[0] : Buffer.concat(pending, pendingBytes)
    pending = []
    pendingBytes = 0
    if (!stream.destroyed) stream.push(joined)
  }
  return stream
}
