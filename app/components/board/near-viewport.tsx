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
}

export function createNearWatcher(): NearWatcher {
  const listeners = new Map<Element, (near: boolean) => void>()
  let observer: IntersectionObserver | null = null
  return {
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
