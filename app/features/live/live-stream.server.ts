import { refuse } from '~/lib/errors'
import { singleton } from '~/lib/singleton.server'
import { projectVersion, replaySince } from '~/features/map/change-log.server'
import { withoutGithubIssues } from '~/features/map/change-events'
import {
  addStream,
  canOpenStream,
  flushChanges,
  viewersOf,
  type StreamAccess,
  type StreamCheck,
  type Viewer,
} from './live-hub.server'
import { SSE_RETRY, sseBytes, sseEvent } from './sse.server'

type StreamOptions = {
  projectId: string
  /** The session (member streams), for the per-session cap; null on a public link. */
  sessionId: string | null
  viewer: Viewer | null
  /** What the member may do as the stream opens (sent in `ready`); null on a public link. */
  access: StreamAccess | null
  /** The version the client has (Last-Event-ID or ?since), or null for a fresh start. */
  since: number | null
  check: () => StreamCheck
  /** From the load context: runs the listener when the client's connection closes. */
  onDisconnect: (listener: () => void) => void
}

/** The version a reconnecting client has: `Last-Event-ID` (what the browser sends), else `?since`. */
export function sinceOf(request: Request): number | null {
  const raw = request.headers.get('Last-Event-ID') ?? new URL(request.url).searchParams.get('since')
  if (raw === null || raw.trim() === '') return null
  if (!/^\d{1,15}$/.test(raw.trim())) throw refuse.invalid('since_invalid', 'since must be a version number.')
  return Number(raw.trim())
}

const SSE_HEADERS = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-cache, no-store, no-transform',
  Connection: 'keep-alive',
  // nginx and similar proxies pass each event on at once instead of buffering the response.
  'X-Accel-Buffering': 'no',
}

/** Where a stream's bytes go: the socket itself (the server's adapter) or a web stream's controller. */
export type StreamSink = { send: (bytes: Uint8Array) => void; close: () => void }

/**
 * A live stream's bytes until a sink takes them, then straight on. The hub registers the stream
 * (and sends `ready` and the replay) while the route answers, before anyone reads the body.
 */
export class SinkPipe {
  #sink: StreamSink | null = null
  #waiting: Uint8Array[] = []
  #ended = false

  send(bytes: Uint8Array) {
    if (this.#ended) return
    if (this.#sink) this.#sink.send(bytes)
    else this.#waiting.push(bytes)
  }

  /** Ends the stream (now, or as soon as a sink takes what waited); later sends are dropped. */
  end() {
    if (this.#ended) return
    this.#ended = true
    this.#sink?.close()
  }

  get ended() {
    return this.#ended
  }

  /** The first sink takes the bytes that waited and everything after; later calls change nothing. */
  attach(sink: StreamSink) {
    if (this.#sink) return
    this.#sink = sink
    for (const bytes of this.#waiting) sink.send(bytes)
    this.#waiting = []
    if (this.#ended) sink.close()
  }
}

/**
 * The bodies of live streams that the server's adapter may write to the socket itself
 * (server/remix-handler.ts): every event then goes out with one `write`, without a web stream's
 * reads and promises between (issue 34). Anyone else reads the body as a web stream.
 */
// The server (build/server.js) and the app (the router's build) are two bundles, each with its own
// copy of this module: the map is kept where both see it.
const pipes = () => singleton('live-stream-pipes', () => new WeakMap<ReadableStream, SinkPipe>())
export const sinkPipeOf = (body: ReadableStream | null): SinkPipe | undefined =>
  body ? pipes().get(body) : undefined

/**
 * A project's live stream (CONTRACT §6) as a Server-Sent Events response, its text formatted by
 * better-sse (app/features/live/sse.server.ts). On connect, in one synchronous step: `reset` if the
 * client's version can no longer be replayed, `ready`, the replay, then registration for live
 * changes, so nothing committed in between is lost or sent twice. The stream lives until the
 * client goes or the hub ends it (ADR 10 says why it does not follow the request's signal).
 */
export function openLiveStream(options: StreamOptions): Response {
  if (!canOpenStream()) {
    return Response.json(
      { error: 'too_many_streams', message: 'Too many live connections are open; try again shortly.' },
      { status: 503, headers: { 'Retry-After': '10' } },
    )
  }
  const { projectId, viewer } = options
  const access = options.access ? JSON.stringify(options.access) : null
  const pipe = new SinkPipe()
  const send = (bytes: Uint8Array) => pipe.send(bytes)
  let remove = () => {}
  const end = () => {
    if (pipe.ended) return
    remove()
    pipe.end()
  }
  send(sseBytes(SSE_RETRY))
  // Changes still waiting to go out are in the log already: send them to the other streams first.
  flushChanges(projectId)
  const current = projectVersion(projectId)
  const replay = options.since === null ? null : replaySince(projectId, options.since, current)
  if (replay?.kind === 'reset') send(sseBytes(sseEvent('reset', JSON.stringify({ version: current }))))
  remove = addStream({
    projectId,
    sessionId: options.sessionId,
    viewer,
    access,
    check: options.check,
    connection: { send, close: end },
  })
  const ready = {
    version: current,
    viewers: viewersOf(projectId),
    ...(options.access ? { access: options.access } : {}),
  }
  send(sseBytes(sseEvent('ready', JSON.stringify(ready))))
  if (replay?.kind === 'events' && replay.events.length > 0) {
    const shown = (event: string) => (options.sessionId === null ? withoutGithubIssues(event) : event)
    send(
      new TextEncoder().encode(
        replay.events.map((e) => sseEvent('change', shown(e.event), e.version).read()).join(''),
      ),
    )
  }
  options.onDisconnect(end)
  // Read as a web stream (tests, any other adapter): the pipe feeds it from the first read on.
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        pipe.attach({
          send: (bytes) => controller.enqueue(bytes),
          close: () => {
            try {
              controller.close()
            } catch {
              // the reader already went away
            }
          },
        })
      },
      cancel: end,
    },
    { highWaterMark: 0 },
  )
  pipes().set(body, pipe)
  return new Response(body, { headers: SSE_HEADERS })
}
