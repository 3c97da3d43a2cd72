import { describe, expect, it } from 'vitest'
import { SinkPipe, type StreamSink } from '~/features/live/live-stream.server'

const bytes = (text: string) => new TextEncoder().encode(text)
const text = (chunks: Uint8Array[]) => chunks.map((c) => new TextDecoder().decode(c)).join('')

function recordingSink() {
  const sent: Uint8Array[] = []
  let closed = 0
  const sink: StreamSink = { send: (b) => sent.push(b), close: () => closed++ }
  return { sink, sent, closed: () => closed }
}

describe("a live stream's pipe to its sink (the socket, or a web stream)", () => {
  it('keeps what was sent before a sink took it, in order, then sends straight on', () => {
    const pipe = new SinkPipe()
    pipe.send(bytes('retry: 3000\n\n'))
    pipe.send(bytes('event: ready\n\n'))
    const { sink, sent } = recordingSink()
    pipe.attach(sink)
    expect(text(sent)).toBe('retry: 3000\n\nevent: ready\n\n')
    pipe.send(bytes('event: change\n\n'))
    expect(text(sent)).toBe('retry: 3000\n\nevent: ready\n\nevent: change\n\n')
  })

  it('is taken by the first sink only', () => {
    const pipe = new SinkPipe()
    const first = recordingSink()
    const second = recordingSink()
    pipe.attach(first.sink)
    pipe.attach(second.sink)
    pipe.send(bytes('x'))
    expect(first.sent).toHaveLength(1)
    expect(second.sent).toHaveLength(0)
  })

  it('closes its sink once when it ends, also when it ended before the sink came, and drops later sends', () => {
    const early = new SinkPipe()
    early.send(bytes('event: ready\n\n'))
    early.end()
    early.send(bytes('event: change\n\n'))
    const late = recordingSink()
    early.attach(late.sink)
    expect(text(late.sent)).toBe('event: ready\n\n')
    expect(late.closed()).toBe(1)

    const pipe = new SinkPipe()
    const sink = recordingSink()
    pipe.attach(sink.sink)
    pipe.end()
    pipe.end()
    pipe.send(bytes('y'))
    expect(sink.closed()).toBe(1)
    expect(sink.sent).toHaveLength(0)
  })
})
