import { createContext, useContext, useEffect, useState, type RefObject } from 'react'

/**
 * Which cell groups are within half a screen-width of the visible part of the board. Only their
 * cells accept drops: the drag library re-renders every drop target at the start and end of
 * each drag, and on a 4,000-card map 2,000 cells made every drop slow. The board scrolls
 * sideways in its own container (the root); rows are not limited, so a whole column of
 * releases near the screen stays open.
 */
export type NearWatcher = {
  setRoot: (root: Element | null) => void
  watch: (element: Element, onChange: (near: boolean) => void) => () => void
  /** The drag library does not take new drop targets during a drag: groups wait for the drop. */
  setDragging: (dragging: boolean) => void
  dragging: () => boolean
  /** Runs the callback when the page is idle and no drag is on, a few per idle moment, in order; answers a cancel. */
  whenIdle: (callback: () => void) => () => void
}

/** Groups made draggable per idle moment: about ten cards each, a few ms of rendering together. */
const GROUPS_PER_IDLE = 4
/** However busy the page, a waiting group becomes draggable within this many ms. */
const IDLE_AT_MOST_MS = 400

/** The drag library takes no new drop targets during a drag: the queue waits while `paused()`. */
function createIdleQueue(paused: () => boolean) {
  const queue = new Set<() => void>()
  let scheduled = false
  const drain = () => {
    scheduled = false
    if (paused()) return
    for (const callback of [...queue].slice(0, GROUPS_PER_IDLE)) {
      queue.delete(callback)
      callback()
    }
    schedule()
  }
  const schedule = () => {
    if (scheduled || queue.size === 0) return
    scheduled = true
    if (window.requestIdleCallback) window.requestIdleCallback(drain, { timeout: IDLE_AT_MOST_MS })
    else setTimeout(drain, 16)
  }
  return {
    add(callback: () => void) {
      queue.add(callback)
      schedule()
      return () => queue.delete(callback)
    },
    resume: schedule,
  }
}

export function createNearWatcher(): NearWatcher {
  const listeners = new Map<Element, (near: boolean) => void>()
  let observer: IntersectionObserver | null = null
  let dragging = false
  const idle = createIdleQueue(() => dragging)
  return {
    whenIdle: idle.add,
    setDragging(value) {
      dragging = value
      if (!value) idle.resume()
    },
    dragging: () => dragging,
    setRoot(root) {
      observer?.disconnect()
      observer = null
      if (!root) return
      observer = new IntersectionObserver(
        (entries) => {
          for (const entry of entries) listeners.get(entry.target)?.(entry.isIntersecting)
        },
        { root, rootMargin: '0px 50% 0px 50%' },
      )
      for (const element of listeners.keys()) observer.observe(element)
    },
    watch(element, onChange) {
      listeners.set(element, onChange)
      observer?.observe(element)
      return () => {
        listeners.delete(element)
        observer?.unobserve(element)
      }
    },
  }
}

const NearContext = createContext<NearWatcher | null>(null)
export const NearViewportProvider = NearContext.Provider

/**
 * Whether a cell group's cards are the drag library's: at once on maps of up to
 * LAZY_DRAG_FEATURES features; on bigger ones once the group has come near the screen (a few
 * groups per idle moment), or at once when the keyboard's focus comes into it (after the
 * drop, if a drag is on). Until then its cards are plain tiles, the same in
 * the page (links, names, focus, search), without the library's per-card components, whose
 * rendering on the server and hydration in the browser were most of a big board's load. A card
 * can only be dragged where it can be seen, so nothing a user can reach changes.
 */
// 500 until issue 34: a 300-card board's page costs about a third less server time (72 → 46 ms)
// without the library's per-card components, and on the capacity bench board pages fill a core first.
export const LAZY_DRAG_FEATURES = 200

export function useDragReady(near: boolean, lazy: boolean, group: RefObject<HTMLElement | null>): boolean {
  const watcher = useContext(NearContext)
  const [ready, setReady] = useState(!lazy)
  // A group the keyboard's focus comes into becomes draggable at once (Space lifts its card): its
  // cards are made anew and the board's keyboard gives the focus to the new one. Not on a click's
  // focus: a card made anew between the press and the release would lose the click.
  useEffect(() => {
    const element = group.current
    if (ready || !watcher || !element) return
    const now = (event: FocusEvent) => {
      if (!watcher.dragging() && (event.target as Element).matches(':focus-visible')) setReady(true)
    }
    element.addEventListener('focusin', now)
    return () => element.removeEventListener('focusin', now)
  }, [ready, watcher, group])
  useEffect(() => {
    if (ready || !near) return
    if (!watcher) return setReady(true)
    // Others near the screen: a few groups at a time, when the page is idle. At 25 % most of the
    // map is near, and making all their draggables at once held the page 100-170 ms after it loaded.
    return watcher.whenIdle(() => setReady(true))
  }, [ready, near, watcher])
  return ready
}

/** False on the server and until the browser has placed the element; true without a watcher. */
export function useNearViewport(ref: RefObject<Element | null>): boolean {
  const watcher = useContext(NearContext)
  const [near, setNear] = useState(false)
  useEffect(() => {
    if (!watcher || !ref.current) return setNear(true)
    return watcher.watch(ref.current, setNear)
  }, [watcher, ref])
  return near
}
