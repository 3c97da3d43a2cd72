import { useRevalidator } from 'react-router'
import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react'
import { boardOutbox } from '~/features/board/ui/board-outbox'
import type { ProjectBundle } from '~/features/map/bundle-types'
import { shareUnchangedEntities } from '~/features/map/bundle-identity'
import {
  applyChangeEvent,
  deletionRoots,
  isProjectDeleted,
  type ChangeEvent,
} from '~/features/map/event-merge'
import { setLiveVersion } from './live-version'
import { forgetOwnEdit } from './own-edits'
import { checkSession } from './session-check'

const noSubscription = () => () => undefined

export type Viewer = { memberId: string; name: string }
/** What the signed-in member may do now, as the live stream last said (CONTRACT §6 `event: access`). */
export type LiveAccess = { level: string; canEdit: boolean }
/** `signed-out`: the session ended; the stream waits for a log-in (the board says so, SessionNotice). */
export type LiveStatus = 'connecting' | 'live' | 'reconnecting' | 'signed-out' | 'off'
export type DeletedCard = { name: string; trashId: string }

export type LiveBoard = {
  /** The newest server copy: the loader's bundle with every change event since merged in. */
  bundle: ProjectBundle
  viewers: Viewer[]
  status: LiveStatus
  /** Who deleted a card, and the trash entry that holds it now, by its id, for cards deleted while this board is open. */
  deletedBy: ReadonlyMap<string, DeletedCard>
  /** While a card is dragged, changes wait; they are applied after the drop. */
  setDragging: (dragging: boolean) => void
  /** Calls `listener` with every change event as it arrives (the Activity panel); returns the unsubscribe. */
  subscribe: (listener: (event: ChangeEvent) => void) => () => void
  /** What the member may do, once the stream has said (null before, and on the public link). */
  access: LiveAccess | null
}

type State = { bundle: ProjectBundle; acceptAny: boolean }

/**
 * Keeps a board in step with everyone else's edits (CONTRACT §6): an EventSource on the
 * project's stream, each change merged into the newest server copy. A fresher loader copy (after
 * one's own edit, or a reload after `reset`) replaces it; older copies and events already seen
 * are ignored. `url` null (demo mode) keeps the board fully local.
 */
export function useLiveBoard(
  loaderBundle: ProjectBundle,
  url: string | null,
  me?: { memberId: string },
): LiveBoard {
  const [state, setState] = useState<State>({ bundle: loaderBundle, acceptAny: false })
  const [viewers, setViewers] = useState<Viewer[]>([])
  const [status, setStatus] = useState<LiveStatus>(url ? 'connecting' : 'off')
  const [deletedBy, setDeletedBy] = useState<ReadonlyMap<string, DeletedCard>>(new Map())
  const [access, setAccess] = useState<LiveAccess | null>(null)
  const revalidator = useRevalidator()
  const reload = useRef(revalidator.revalidate)
  reload.current = () => {
    forgetOwnEdit()
    return revalidator.revalidate()
  }
  const version = useRef(loaderBundle.version)
  version.current = state.bundle.version
  const shown = useRef(state.bundle)
  shown.current = state.bundle
  const meId = useRef(me?.memberId)
  meId.current = me?.memberId
  const dragging = useRef(false)
  const listeners = useRef(new Set<(event: ChangeEvent) => void>())
  const subscribe = useCallback((listener: (event: ChangeEvent) => void) => {
    listeners.current.add(listener)
    return () => void listeners.current.delete(listener)
  }, [])
  const waiting = useRef<ChangeEvent[]>([])

  // A loader copy replaces the live one when it is at least as new (or after a reset or gap).
  useEffect(() => {
    setState((current) =>
      current.acceptAny || loaderBundle.version >= current.bundle.version
        ? { bundle: shareUnchangedEntities(current.bundle, loaderBundle), acceptAny: false }
        : current,
    )
  }, [loaderBundle])

  const apply = useCallback((events: ChangeEvent[]) => {
    let gap = false
    setState((current) => {
      let bundle = current.bundle
      for (const event of events) {
        if (event.version <= bundle.version) continue // already in this copy
        if (event.version !== bundle.version + 1) {
          gap = true
          break
        }
        bundle = applyChangeEvent(bundle, event)
      }
      return bundle === current.bundle && !gap ? current : { bundle, acceptAny: gap || current.acceptAny }
    })
    const deleted = events.flatMap((e) =>
      [...deletionRoots(shown.current, e)].map(
        ([id, trashId]) => [id, { name: e.by.name, trashId }] as const,
      ),
    )
    if (deleted.length > 0) setDeletedBy((map) => new Map([...map, ...deleted]))
    // Someone else deleted the project: reloading shows 'Project not found'. One's own delete
    // navigates away by itself, and a reload now would get in its way.
    if (gap || events.some((e) => isProjectDeleted(e) && e.by.memberId !== meId.current)) reload.current()
  }, [])

  const setDragging = useCallback(
    (on: boolean) => {
      dragging.current = on
      if (!on && waiting.current.length > 0) apply(waiting.current.splice(0))
    },
    [apply],
  )

  // The session ended under the board: no stream (and no reload, which would leave for the
  // log-in page and lose what is typed) until the member logs in again (board-outbox.ts).
  const signedOut = useSyncExternalStore(
    boardOutbox?.subscribe ?? noSubscription,
    () => boardOutbox?.getState().signedOut ?? false,
    () => false,
  )

  useEffect(() => {
    if (!url || typeof EventSource === 'undefined') return
    if (signedOut) {
      setStatus('signed-out')
      return
    }
    let source: EventSource | null = null
    let retry: ReturnType<typeof setTimeout> | undefined
    let stopped = false
    const connect = () => {
      const separator = url.includes('?') ? '&' : '?'
      source = new EventSource(`${url}${separator}since=${version.current}`)
      source.addEventListener('ready', (e) => {
        setStatus('live')
        const ready = JSON.parse((e as MessageEvent).data) as { viewers: Viewer[]; access?: LiveAccess }
        setViewers(ready.viewers)
        if (ready.access) setAccess(sameAccess(ready.access))
      })
      // The member's level or the plan changed: the board follows, and its data (undo, sharing) is read again.
      source.addEventListener('access', (e) => {
        setAccess(sameAccess(JSON.parse((e as MessageEvent).data) as LiveAccess))
        reload.current()
      })
      source.addEventListener('presence', (e) => setViewers(JSON.parse((e as MessageEvent).data).viewers))
      source.addEventListener('change', (e) => {
        const event = JSON.parse((e as MessageEvent).data) as ChangeEvent
        for (const listener of listeners.current) listener(event)
        if (dragging.current) waiting.current.push(event)
        else apply([event])
      })
      source.addEventListener('reset', () => {
        setState((current) => ({ ...current, acceptAny: true }))
        reload.current()
      })
      source.onerror = () => {
        setStatus('reconnecting')
        const failed = source
        const closed = failed?.readyState === EventSource.CLOSED
        if (closed) source = null
        // A signed-in member's stream may have ended with the session: asked first, as a reload
        // would then go to the log-in page.
        void (meId.current ? checkSession(meId.current) : Promise.resolve('unknown' as const)).then(
          (session) => {
            if (stopped) return
            if (session === 'signed-out' || session === 'other-member') {
              failed?.close()
              if (source === failed) source = null
              boardOutbox?.markSignedOut()
              return
            }
            // The browser retries by itself after a network error (sending Last-Event-ID); a
            // refusal closes the source for good: reload the page's data (which shows why, e.g.
            // 'Project not found') and try again a little later.
            if (closed) {
              reload.current()
              retry = setTimeout(connect, 5000)
            }
          },
        )
      }
    }
    connect()
    return () => {
      stopped = true
      clearTimeout(retry)
      source?.close()
    }
  }, [url, apply, signedOut])

  // What the board shows while it is live, for a reload that can wait for an edit to come back instead (own-edits.ts).
  const projectId = state.bundle.project.id
  const liveVersion = url && status === 'live' ? state.bundle.version : null
  useEffect(() => setLiveVersion(projectId, liveVersion), [projectId, liveVersion])
  useEffect(() => () => setLiveVersion(projectId, null), [projectId])

  return { bundle: state.bundle, viewers, status, deletedBy, setDragging, subscribe, access }
}

/** Keeps the previous access object when nothing in it changed (no re-render of the board for nothing). */
function sameAccess(next: LiveAccess) {
  return (previous: LiveAccess | null) =>
    previous && previous.level === next.level && previous.canEdit === next.canEdit ? previous : next
}
