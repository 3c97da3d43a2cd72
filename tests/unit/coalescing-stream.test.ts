import { once } from 'node:events'
import { describe, expect, it } from 'vitest'
import { createCoalescingStream } from '~/http/coalescing-stream.server'

function collect(stream: ReturnType<typeof createCoalescingStream>) {
  const chunks: Buffer[] = []
  stream.on('data', (chunk: Buffer) => chunks.push(chunk))
  return chunks
}

describe('the page stream', () => {
  it('joins many small writes into few large chunks, byte for byte', async () => {
    const stream = createCoalescingStream()
    const chunks = collect(stream)
    const written: Buffer[] = []
    for (let i = 0; i < 500; i++) {
      const piece = Buffer.from(`<a href="/f/${i}">Card ${i}</a>`.padEnd(2048, ' '))
      written.push(piece)
      stream.write(piece)
    }
    stream.end()
    await once(stream, 'end')
    expect(Buffer.concat(chunks).equals(Buffer.concat(written))).toBe(true)
    expect(chunks.length).toBeLessThanOrEqual(17) // ~1 MB in 64 KB chunks, not 500 of 2 KB
  })

  it('passes on a small write without waiting for the end (a streamed part of the page)', async () => {
    const stream = createCoalescingStream()
    const chunks = collect(stream)
    stream.write('<script>late data</script>')
    await new Promise((resolve) => setImmediate(resolve))
    await new Promise((resolve) => setImmediate(resolve))
    expect(Buffer.concat(chunks).toString()).toBe('<script>late data</script>')
    stream.end()
  })
})
