import { createResponse } from 'better-sse'
import { refuse } from '~/domain/errors'
import { projectVersion, replaySince } from '~/models/change-log.server'
import { addStream, canOpenStream, viewersOf, type StreamCheck, type Viewer } from './live-hub.server'
import { sseEvent, sseFormat, type SseText } from './sse.server'

type StreamOptions = {
  projectId: string
  /** The session (member streams), for the per-session cap; null on a public link. */
  sessionId: string | null
  viewer: Viewer | null
  /** The version the client has (Last-Event-ID or ?since), or null for a fresh start. */
  since: number | null
  check: () => StreamCheck
}

/** The version a reconnecting client has: `Last-Event-ID` (what the browser sends), else `?since`. */
export function sinceOf(request: Request): number | null {
  const raw = request.headers.get('Last-Event-ID') ?? new URL(request.url).searchParams.get('since')
  if (raw === null || raw.trim() === '') return null
  if (!/^\d{1,15}$/.test(raw.trim())) throw refuse.invalid('since_invalid', 'since must be a version number.')
  return Number(raw.trim())
}

/**
 * A project's live stream (CONTRACT §6) as a Server-Sent Events response (better-sse over the
 * Fetch API). On connect, in one synchronous step: `reset` if the client's version can no
 * longer be replayed, `ready`, the replay, then registration for live changes, so nothing
 * committed in between is lost or sent twice.
 */
export function openLiveStream(request: Request, options: StreamOptions): Response {
  if (!canOpenStream()) {
    return Response.json(
      { error: 'too_many_streams', message: 'Too many live connections are open; try again shortly.' },
      { status: 503, headers: { 'Retry-After': '10' } },
    )
  }
  const ended = new AbortController()
  const signal = AbortSignal.any([request.signal, ended.signal])
  const streamRequest = new Request(request.url, { headers: request.headers, signal })
  const settings = { ...sseFormat, keepAlive: null, retry: 2000, trustClientEventId: false }
  return createResponse(streamRequest, settings, (session) => {
    if (signal.aborted) return
    let open = true
    const send = (text: SseText) => {
      if (open) session.batch(text).catch(() => {})
    }
    const { projectId, viewer } = options
    const current = projectVersion(projectId)
    const replay = options.since === null ? null : replaySince(projectId, options.since, current)
    if (replay?.kind === 'reset') send(sseEvent('reset', JSON.stringify({ version: current })))
    const remove = addStream({
      projectId,
      sessionId: options.sessionId,
      viewer,
      check: options.check,
      connection: {
        send,
        close: () => {
          open = false
          ended.abort()
        },
      },
    })
    session.once('disconnected', () => {
      open = false
      remove()
    })
    send(sseEvent('ready', JSON.stringify({ version: current, viewers: viewersOf(projectId) })))
    if (replay?.kind === 'events') for (const e of replay.events) send(sseEvent('change', e.event, e.version))
  })
}
