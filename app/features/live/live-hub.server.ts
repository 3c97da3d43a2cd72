import { logger } from '~/lib/logger.server'
import { singleton } from '~/lib/singleton.server'
import { SSE_KEEP_ALIVE, sseBytes, sseEvent } from './sse.server'
import { withoutGithubIssues } from '~/features/map/change-events'
import type { ChangeListener, CommittedChange } from '~/features/map/listeners.server'

/**
 * The live streams of this process (CONTRACT §6, ADR 10): who is watching which project, the
 * fan-out of each committed change, presence, the caps, keep-alives, and the periodic check
 * that ends a stream whose member, session, link or project has gone. Transport-agnostic: a
 * stream is anything that can take SSE text and be closed (app/features/live/live-stream.server.ts).
 */

export type Viewer = { memberId: string; name: string }

/** What the stream's member may do now (CONTRACT §6 `event: access`). */
export type StreamAccess = { level: string; canEdit: boolean }

/**
 * What a stream's periodic check answers: still allowed (with the member's current name and
 * access, for member streams), or not.
 */
export type StreamCheck =
  | {
      ok: true
      viewer: Viewer | null
      access?: StreamAccess
      /** When the answer may change with time alone (a session or trial ending), epoch ms; unset: at any time. */
      until?: number
    }
  | { ok: false }

export type StreamConnection = {
  /** Sends formatted SSE bytes (one event, a comment, or a batch of events). */
  send: (bytes: Uint8Array) => void
  /** Ends the response. */
  close: () => void
}

export type LiveStream = {
  id: number
  projectId: string
  /** The session's id for member streams; null for public-link streams. */
  sessionId: string | null
  viewer: Viewer | null
  /** The access last told to this stream (in `ready` or an `access` event), as its JSON; null on a link. */
  access: string | null
  connection: StreamConnection
  check: () => StreamCheck
  /** Epoch ms after which its check must run again even with no access write (0: at the next sweep). */
  recheckAt?: number
}

export const LIMITS = {
  perSession: 20,
  /**
   * Changes to one project go out at most this often, several in one write per stream: under a
   * burst of edits a stream costs one write per window instead of one per change (ADR 10).
   */
  batchWindowMs: 20,
  /** How often every stream's right to stay open is checked (CONTRACT §6: within 5 s). */
  checkEveryMs: 2000,
}

type Hub = {
  byProject: Map<string, Set<LiveStream>>
  bySession: Map<string, LiveStream[]>
  presence: Map<string, string>
  count: number
  nextId: number
  closing: boolean
  timers: NodeJS.Timeout[]
  keepAliveMs: number
  maxStreams: number
  /** A mark that changes when a write may have changed someone's access (see accessWritesMark); null: unknown. */
  accessMark: () => string | null
  /** The mark the last full check began with. */
  checkedMark: string | null
  /** Change events waiting for their project's next write to its streams. */
  batches: Map<
    string,
    {
      frames: string[]
      publicFrames: string[]
      timer: NodeJS.Timeout | NodeJS.Immediate | null
      lastFlush: number
    }
  >
}

const hub = (): Hub =>
  singleton('live-hub', () => ({
    byProject: new Map(),
    bySession: new Map(),
    presence: new Map(),
    count: 0,
    nextId: 1,
    closing: false,
    timers: [],
    keepAliveMs: 20_000,
    maxStreams: 5000,
    accessMark: () => null,
    checkedMark: null,
    batches: new Map(),
  }))

/** Process-wide settings from the environment (set once at start). */
export function configureLiveHub(options: {
  keepAliveMs: number
  maxStreams: number
  accessMark?: () => string | null
}) {
  Object.assign(hub(), options)
}

/** Whether one more stream may open now (the process cap, and not while shutting down). */
export function canOpenStream(): boolean {
  const h = hub()
  return !h.closing && h.count < h.maxStreams
}

/** The members with an open stream on the project, one entry each, by name. */
export function viewersOf(projectId: string): Viewer[] {
  const byMember = new Map<string, Viewer>()
  for (const stream of hub().byProject.get(projectId) ?? []) {
    if (stream.viewer) byMember.set(stream.viewer.memberId, stream.viewer)
  }
  return [...byMember.values()].sort(
    (a, b) => a.name.localeCompare(b.name) || a.memberId.localeCompare(b.memberId),
  )
}

/**
 * Registers an open stream; from now on it receives every change of its project. The caller
 * has already sent it `ready` (and any replay) in the same synchronous step, so nothing is
 * missed or doubled. Returns the function that unregisters it.
 */
export function addStream(stream: Omit<LiveStream, 'id'>): () => void {
  const h = hub()
  const live: LiveStream = { ...stream, id: h.nextId++ }
  let streams = h.byProject.get(live.projectId)
  if (!streams) h.byProject.set(live.projectId, (streams = new Set()))
  streams.add(live)
  h.count++
  if (live.sessionId) {
    const ofSession = h.bySession.get(live.sessionId) ?? []
    ofSession.push(live)
    h.bySession.set(live.sessionId, ofSession)
    // The oldest of a session's streams gives way (a user with many tabs, or a leaking client).
    for (const oldest of ofSession.slice(0, Math.max(0, ofSession.length - LIMITS.perSession)))
      endStream(oldest)
  }
  startTimers(h)
  logger.debug(
    { stream: live.id, projectId: live.projectId, member: live.viewer?.memberId, open: h.count },
    'live stream opened',
  )
  announcePresence(live.projectId, live)
  return () => removeStream(live)
}

/** Unregisters a stream and ends its response. */
function endStream(live: LiveStream) {
  removeStream(live)
  live.connection.close()
}

function removeStream(live: LiveStream) {
  const h = hub()
  const streams = h.byProject.get(live.projectId)
  if (!streams?.delete(live)) return
  h.count--
  logger.debug({ stream: live.id, projectId: live.projectId, open: h.count }, 'live stream closed')
  if (streams.size === 0) {
    h.byProject.delete(live.projectId)
    h.presence.delete(live.projectId)
    const batch = h.batches.get(live.projectId)
    if (batch?.timer) {
      clearTimeout(batch.timer as NodeJS.Timeout)
      clearImmediate(batch.timer as NodeJS.Immediate)
    }
    h.batches.delete(live.projectId)
  }
  if (live.sessionId) {
    const ofSession = (h.bySession.get(live.sessionId) ?? []).filter((s) => s !== live)
    if (ofSession.length > 0) h.bySession.set(live.sessionId, ofSession)
    else h.bySession.delete(live.sessionId)
  }
  if (streams.size > 0) announcePresence(live.projectId)
  if (h.count === 0) stopTimers(h)
}

/** Sends `presence` to the project's streams when the set of viewers changed (not to `skip`, whose `ready` had it). */
function announcePresence(projectId: string, skip?: LiveStream) {
  const h = hub()
  const viewers = viewersOf(projectId)
  const signature = JSON.stringify(viewers)
  const before = h.presence.get(projectId)
  h.presence.set(projectId, signature)
  if (before === undefined && skip) return // the first stream: its `ready` says it all
  if (before === signature) return
  const frame = sseBytes(sseEvent('presence', `{"viewers":${signature}}`))
  for (const stream of h.byProject.get(projectId) ?? []) if (stream !== skip) stream.connection.send(frame)
}

/**
 * Fans committed changes out to the streams of their projects, in version order. The first
 * change after a quiet window goes out at once (after the current I/O callbacks); later ones
 * within the window wait for it and go out together.
 */
export function publishChanges(changes: readonly CommittedChange[]) {
  const h = hub()
  for (const change of changes) {
    if (!h.byProject.has(change.projectId)) continue
    let batch = h.batches.get(change.projectId)
    if (!batch)
      h.batches.set(change.projectId, (batch = { frames: [], publicFrames: [], timer: null, lastFlush: 0 }))
    batch.frames.push(sseEvent('change', change.event, change.version).read())
    batch.publicFrames.push(sseEvent('change', withoutGithubIssues(change.event), change.version).read())
    if (change.projectDeleted) {
      flushChanges(change.projectId)
      for (const stream of [...(h.byProject.get(change.projectId) ?? [])]) endStream(stream)
    } else if (!batch.timer) {
      const wait = batch.lastFlush + LIMITS.batchWindowMs - performance.now()
      const projectId = change.projectId
      batch.timer =
        wait <= 0
          ? setImmediate(() => flushChanges(projectId))
          : setTimeout(() => flushChanges(projectId), wait)
    }
  }
}

/**
 * Sends a project's waiting changes to its streams now, as one write each. A stream that opens
 * calls this first, so what it replays from the log is never sent to it again.
 */
export function flushChanges(projectId: string) {
  const h = hub()
  const batch = h.batches.get(projectId)
  if (!batch || batch.frames.length === 0) return
  if (batch.timer) {
    clearTimeout(batch.timer as NodeJS.Timeout)
    clearImmediate(batch.timer as NodeJS.Immediate)
    batch.timer = null
  }
  const text = batch.frames.join('')
  const bytes = new TextEncoder().encode(text)
  const publicText = batch.publicFrames.join('')
  // Public-link streams get the same events without features' GitHub issues (usually the same text).
  const publicBytes = publicText === text ? bytes : new TextEncoder().encode(publicText)
  batch.frames = []
  batch.publicFrames = []
  batch.lastFlush = performance.now()
  for (const stream of h.byProject.get(projectId) ?? [])
    stream.connection.send(stream.sessionId === null ? publicBytes : bytes)
}

/** Ends every stream of these projects now (their maps went with their workspace). */
export function endProjectStreams(projectIds: readonly string[]) {
  const h = hub()
  for (const projectId of projectIds)
    for (const stream of [...(h.byProject.get(projectId) ?? [])]) endStream(stream)
}

/**
 * Ends every stream of a project whose member, session, link or project has gone; refreshes
 * renamed viewers. With `dueOnly`, only streams whose answer may have changed with time are asked.
 */
function checkProjectStreams(
  h: Hub,
  projectId: string,
  streams: Set<LiveStream>,
  dueOnly: boolean,
  now: number,
) {
  let renamed = false
  for (const stream of [...streams]) {
    if (dueOnly && (stream.recheckAt ?? 0) > now) continue
    const result = stream.check()
    if (!result.ok) {
      endStream(stream)
      continue
    }
    stream.recheckAt = result.until ?? 0
    if (result.viewer && stream.viewer && result.viewer.name !== stream.viewer.name) {
      stream.viewer = result.viewer
      renamed = true
    }
    const access = result.access ? JSON.stringify(result.access) : null
    if (access !== null && access !== stream.access) {
      stream.access = access
      stream.connection.send(sseBytes(sseEvent('access', access)))
    }
  }
  if (renamed && h.byProject.has(projectId)) announcePresence(projectId)
}

/** Streams handled between two turns of the event loop in a sweep over all of them. */
const SWEEP_SLICE = 100

/**
 * Runs `visit` on every project's streams, yielding to the event loop after about SWEEP_SLICE
 * streams: with 1,600 streams open, checking them all in one go (a query each) held the loop for
 * tens of milliseconds every two seconds, and every write arriving meanwhile waited (issue 34).
 */
export function sweepInSlices(
  h: Pick<Hub, 'byProject' | 'closing'>,
  visit: (projectId: string, streams: Set<LiveStream>) => void,
) {
  let running = false
  return async () => {
    if (running) return
    running = true
    try {
      let sinceYield = 0
      for (const projectId of [...h.byProject.keys()]) {
        const streams = h.byProject.get(projectId)
        if (h.closing) return
        if (!streams) continue
        visit(projectId, streams)
        sinceYield += streams.size
        if (sinceYield >= SWEEP_SLICE) {
          sinceYield = 0
          await new Promise((resolve) => setImmediate(resolve))
        }
      }
    } finally {
      running = false
    }
  }
}

/**
 * The periodic check (CONTRACT §6: a stream ends, or hears of its new access, within 5 s). Every
 * stream is asked when a write since the last full check may have changed an answer (the access
 * mark moved, or is unknown); otherwise only those whose answer may have changed with time.
 */
export function checkSweep(h: Hub) {
  let dueOnly = false
  let now = 0
  const sweep = sweepInSlices(h, (projectId, streams) =>
    checkProjectStreams(h, projectId, streams, dueOnly, now),
  )
  let running = false
  return async () => {
    if (running) return // the sweep before this one is still going: it is taken as this one's
    running = true
    try {
      const mark = h.accessMark()
      // Read before the sweep: a write during it moves the mark again, and the next sweep is full.
      dueOnly = mark !== null && mark === h.checkedMark
      h.checkedMark = mark
      now = Date.now()
      await sweep()
    } finally {
      running = false
    }
  }
}

function startTimers(h: Hub) {
  if (h.timers.length > 0) return
  const keepAlive = sseBytes(SSE_KEEP_ALIVE)
  const sendKeepAlives = sweepInSlices(h, (_projectId, streams) => {
    for (const stream of streams) stream.connection.send(keepAlive)
  })
  const keepAliveTimer = setInterval(sendKeepAlives, h.keepAliveMs)
  const check = setInterval(checkSweep(h), LIMITS.checkEveryMs)
  h.timers = [keepAliveTimer, check]
  for (const timer of h.timers) timer.unref()
}

function stopTimers(h: Hub) {
  for (const timer of h.timers) clearInterval(timer)
  h.timers = []
}

/** Shutdown: no new streams, and every open one ends now. */
export function closeAllStreams() {
  const h = hub()
  h.closing = true
  for (const streams of [...h.byProject.values()]) for (const stream of [...streams]) endStream(stream)
  stopTimers(h)
}

export function openStreamCount(): number {
  return hub().count
}

/** The live hub follows every committed change (registered at start, server/map-followers.ts). */
export const liveFollower: ChangeListener = {
  name: 'live',
  afterCommit: publishChanges,
  mapsGone: endProjectStreams,
}
