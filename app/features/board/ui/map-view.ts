import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { DEFAULT_VIEW, parseStoredView, toggleId, type MapView, type Zoom } from '~/features/board/overview'

/** Where a member's view is kept: on the server (members) or in the browser (the public link). */
export type ViewStore = {
  initial: MapView
  save: (view: MapView) => void
  /** A view only the browser knows, read once the page is live (the server drew `initial`). */
  load?: () => MapView | null
}

export type MapViewApi = {
  view: MapView
  goalsFolded: ReadonlySet<string>
  releasesFolded: ReadonlySet<string>
  foldGoal: (id: string, folded: boolean) => void
  foldRelease: (id: string, folded: boolean) => void
  /** Folds (true) or unfolds every goal and release given. */
  foldAll: (folded: boolean, goals: readonly string[], releases: readonly string[]) => void
  setZoom: (zoom: Zoom) => void
}

/** Saved this long after the last change, so a run of clicks is one request. */
const SAVE_AFTER_MS = 250

/**
 * The board's folds and zoom (CONTRACT §15). Changes show at once and are saved a moment later
 * (and when the page goes away), never through the map's outbox: they are no change to the map.
 */
export function useMapView(store: ViewStore): MapViewApi {
  const [view, setView] = useState(store.initial)
  const latest = useRef({ store, pending: null as MapView | null })
  latest.current.store = store
  const timer = useRef<number | undefined>(undefined)
  const flush = useCallback(() => {
    window.clearTimeout(timer.current)
    const pending = latest.current.pending
    latest.current.pending = null
    if (pending) latest.current.store.save(pending)
  }, [])
  useEffect(() => {
    const loaded = latest.current.store.load?.()
    if (loaded) setView(loaded)
  }, [])
  useEffect(() => {
    window.addEventListener('pagehide', flush)
    return () => {
      window.removeEventListener('pagehide', flush)
      flush()
    }
  }, [flush])
  const change = useCallback(
    (next: (view: MapView) => MapView) =>
      setView((before) => {
        const after = next(before)
        latest.current.pending = after
        window.clearTimeout(timer.current)
        timer.current = window.setTimeout(flush, SAVE_AFTER_MS)
        return after
      }),
    [flush],
  )
  const goalsFolded = useMemo(() => new Set(view.collapsedWorkflows), [view.collapsedWorkflows])
  const releasesFolded = useMemo(() => new Set(view.collapsedMilestones), [view.collapsedMilestones])
  const foldGoal = useCallback(
    (id: string, folded: boolean) =>
      change((v) => ({ ...v, collapsedWorkflows: toggleId(v.collapsedWorkflows, id, folded) })),
    [change],
  )
  const foldRelease = useCallback(
    (id: string, folded: boolean) =>
      change((v) => ({ ...v, collapsedMilestones: toggleId(v.collapsedMilestones, id, folded) })),
    [change],
  )
  const foldAll = useCallback(
    (folded: boolean, goals: readonly string[], releases: readonly string[]) =>
      change((v) => ({
        ...v,
        collapsedWorkflows: folded ? [...goals] : [],
        collapsedMilestones: folded ? [...releases] : [],
      })),
    [change],
  )
  const setZoom = useCallback((zoom: Zoom) => change((v) => (v.zoom === zoom ? v : { ...v, zoom })), [change])
  return { view, goalsFolded, releasesFolded, foldGoal, foldRelease, foldAll, setZoom }
}

/** A member's view, kept on the server: `PUT /v1/projects/{id}/view`. */
export function serverViewStore(projectId: string, workspaceId: string, initial: MapView): ViewStore {
  return {
    initial,
    save: (view) => {
      void fetch(`/v1/projects/${projectId}/view`, {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json', Workspace: workspaceId },
        body: JSON.stringify(view),
        keepalive: true,
      }).catch(() => {})
    },
  }
}

const linkKey = (key: string) => `storymap:view:${key}`

/** A public-link viewer's view, kept in this browser (localStorage). */
export function browserViewStore(key: string): ViewStore {
  return {
    initial: DEFAULT_VIEW,
    load: () => {
      try {
        const text = window.localStorage.getItem(linkKey(key))
        return text ? parseStoredView(text) : null
      } catch {
        // Storage refused (private mode): the view lasts as long as the page.
        return null
      }
    },
    save: (view) => {
      try {
        window.localStorage.setItem(linkKey(key), JSON.stringify(view))
      } catch {
        // As above.
      }
    },
  }
}
