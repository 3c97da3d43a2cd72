import { createParser } from 'eventsource-parser'
import type { Client } from './client'

export type LiveEvent = { event: string; id?: string; data: any }

/**
 * One live stream (CONTRACT §6) as a black-box client reads it: fetch with the client's
 * cookie, bytes parsed by eventsource-parser. `next()` waits for the next event in order.
 */
export class LiveStream {
  readonly events: LiveEvent[] = []
  readonly comments: string[] = []
  private cursor = 0
  private waiters: (() => void)[] = []
  private controller = new AbortController()
  status = 0
  body: any = undefined
  headers?: Headers
  /** Resolves when the server ends the stream (or it is aborted). */
  ended!: Promise<void>

  static async open(
    baseUrl: string,
    path: string,
    options: { client?: Client; lastEventId?: string; headers?: Record<string, string> } = {},
  ): Promise<LiveStream> {
    const stream = new LiveStream()
    const headers: Record<string, string> = { Accept: 'text/event-stream', ...options.headers }
    if (options.client?.cookies.size) headers.Cookie = options.client.cookieHeader()
    if (options.lastEventId !== undefined) headers['Last-Event-ID'] = options.lastEventId
    const res = await fetch(baseUrl + path, { headers, signal: stream.controller.signal })
    stream.status = res.status
    stream.headers = res.headers
    if (res.status !== 200 || !res.headers.get('content-type')?.startsWith('text/event-stream')) {
      const text = await res.text()
      try {
        stream.body = JSON.parse(text)
      } catch {
        stream.body = text
      }
      stream.ended = Promise.resolve()
      return stream
    }
    const parser = createParser({
      onEvent: (e) => {
        stream.events.push({ event: e.event ?? 'message', id: e.id, data: JSON.parse(e.data) })
        stream.wake()
      },
      onComment: (c) => {
        stream.comments.push(c)
        stream.wake()
      },
    })
    const reader = res.body!.getReader()
    const decoder = new TextDecoder()
    stream.ended = (async () => {
      try {
        for (;;) {
          const { done, value } = await reader.read()
          if (done) break
          parser.feed(decoder.decode(value, { stream: true }))
        }
      } catch {
        // aborted by close()
      }
      stream.closedByServer = !stream.controller.signal.aborted
      stream.wake()
    })()
    return stream
  }

  closedByServer = false

  private wake() {
    const waiters = this.waiters
    this.waiters = []
    for (const w of waiters) w()
  }

  /** The next event (optionally of one type, skipping others), or an error after `timeoutMs`. */
  async next(type?: string, timeoutMs = 5000): Promise<LiveEvent> {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      while (this.cursor < this.events.length) {
        const e = this.events[this.cursor++]
        if (!type || e.event === type) return e
      }
      if (this.closedByServer) throw new Error(`stream ended while waiting for ${type ?? 'an event'}`)
      const left = deadline - Date.now()
      if (left <= 0)
        throw new Error(
          `no ${type ?? 'event'} within ${timeoutMs} ms; got ${JSON.stringify(this.events.map((e) => e.event))}`,
        )
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left)
        this.waiters.push(() => {
          clearTimeout(timer)
          resolve()
        })
      })
    }
  }

  /** Resolves once the server has ended the stream, or fails after `timeoutMs`. */
  async endedWithin(timeoutMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined
    await Promise.race([
      this.ended,
      new Promise(
        (_, reject) =>
          (timer = setTimeout(() => reject(new Error(`stream still open after ${timeoutMs} ms`)), timeoutMs)),
      ),
    ])
    clearTimeout(timer)
    if (!this.closedByServer) throw new Error('stream was closed by the client, not the server')
  }

  /** Waits until `count` events are buffered that were not read yet... or none arrive within `quietMs`. */
  async settle(quietMs = 300): Promise<LiveEvent[]> {
    let seen = -1
    while (seen !== this.events.length) {
      seen = this.events.length
      await new Promise((r) => setTimeout(r, quietMs))
    }
    const rest = this.events.slice(this.cursor)
    this.cursor = this.events.length
    return rest
  }

  close() {
    this.controller.abort()
  }
}
