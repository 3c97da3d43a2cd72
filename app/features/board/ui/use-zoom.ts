import { useEffect, useRef } from 'react'
import { fitZoom, zoomIn, zoomOut, type Zoom } from '~/features/board/overview'
import { useBrowserLayoutEffect } from '~/ui/use-browser-layout-effect'
import { typingIn } from './use-board-keyboard'

type Options = {
  zoom: Zoom
  setZoom: (zoom: Zoom) => void
  /** The map's width at 100 % as it is folded now. */
  widthAt100: () => number
  /** The board's scroll box. */
  box: HTMLElement | null
  /** True while the drag library moves a card. */
  dragging: () => boolean
}

const modalOpen = () => document.querySelector('[role="dialog"][aria-modal="true"]') !== null

/**
 * Zoom by keys (`-`, `=`, `0` for Fit; CONTRACT §15), all in the browser: no server round trip
 * but the view's save. Returns `fit`, which picks the largest level at which the map fits the box.
 */
export function useZoom({ zoom, setZoom, widthAt100, box, dragging }: Options) {
  const latest = useRef({ zoom, setZoom, widthAt100, box, dragging })
  latest.current = { zoom, setZoom, widthAt100, box, dragging }
  const fit = () => {
    const { box: scroller, widthAt100: width } = latest.current
    if (scroller) latest.current.setZoom(fitZoom(width(), scroller.clientWidth))
  }
  const fitRef = useRef(fit)
  fitRef.current = fit
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return
      if (typingIn(event.target) || modalOpen() || latest.current.dragging()) return
      const { zoom: now, setZoom: set } = latest.current
      if (event.key === '-') set(zoomOut(now))
      else if (event.key === '=' || event.key === '+') set(zoomIn(now))
      else if (event.key === '0') fitRef.current()
      else return
      event.preventDefault()
    }
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [])
  return { fit }
}

/**
 * The board scrolls inside the window's height, so its horizontal scrollbar is always in view and
 * the sticky headers have a box to stick in: the box's top is measured, the rest is CSS.
 */
export function useBoardBox(box: HTMLElement | null) {
  useBrowserLayoutEffect(() => {
    if (!box) return
    const measure = () => {
      const top = box.getBoundingClientRect().top + window.scrollY
      box.style.setProperty('--board-top', `${Math.max(0, Math.round(top))}px`)
    }
    measure()
    const observer = new ResizeObserver(measure)
    observer.observe(document.body)
    return () => observer.disconnect()
  }, [box])
}
