import { execFileSync } from 'node:child_process'
import { expect, it } from 'vitest'

/**
 * A live stream (CONTRACT §6) stays open for hours, and every event it sends goes through
 * `writeReadableStreamToWritable` of @react-router/node. In 7.x that raced each read against one
 * promise pending for the stream's whole life, which kept every chunk ever sent (react-router
 * #15247, fixed in 8.x only); patches/ backports the fix (issue 34). Measured in a process of its
 * own, with its garbage collected before and after.
 */
const PROBE = `
import { writeReadableStreamToWritable } from '@react-router/node'
import { Writable } from 'node:stream'
const sink = new Writable({ write(_chunk, _encoding, done) { done() } })
let controller
const stream = new ReadableStream({ start(c) { controller = c } })
const piping = writeReadableStreamToWritable(stream, sink)
const turn = () => new Promise((resolve) => setImmediate(resolve))
const held = () => { gc(); const m = process.memoryUsage(); return m.heapUsed + m.arrayBuffers }
await turn()
const before = held()
for (let i = 0; i < 2000; i++) { controller.enqueue(new Uint8Array(10_000).fill(i % 256)); await turn() }
const grew = held() - before
controller.close()
await piping
console.log(JSON.stringify({ grew, ended: sink.writableEnded }))
`

it('keeps none of the chunks an open stream has already sent (20 MB sent through a stream that stays open)', () => {
  const out = execFileSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', PROBE], {
    encoding: 'utf8',
  })
  const { grew, ended } = JSON.parse(out) as { grew: number; ended: boolean }
  expect(ended).toBe(true)
  // With the leak, all 2,000 chunks of 10 KB stay reachable: 21 MB here; without it, 1–3 MB of noise.
  expect(grew).toBeLessThan(8_000_000)
})
