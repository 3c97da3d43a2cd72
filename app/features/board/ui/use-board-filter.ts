import { useLocation, useNavigate } from 'react-router'
import { useCallback, useEffect, useRef, useState } from 'react'
import {
  parseBoardFilter,
  queryString,
  writeBoardFilter,
  type BoardFilter,
} from '~/features/board/board-filter'

const filterKey = (filter: BoardFilter) => writeBoardFilter(new URLSearchParams(), filter).toString()
/** While typing, the URL follows once the keys pause (a router update per key costs a big board ~20 ms). */
const TYPING_PAUSE_MS = 250

export type SetFilter = (next: BoardFilter, options?: { typing?: boolean }) => void

/**
 * The search and filters live in the URL query, so a filtered view survives a reload and can be
 * shared. A change shows at once (local state); the URL follows by replacing its history entry
 * (no entry per change), keeping the scroll, right away or, while typing, after a pause. The
 * board's loaders do not run again for a query change (their shouldRevalidate). A URL that
 * changes from elsewhere (back, a pasted link) is taken over; the router's answers to our own
 * writes are not, even when they arrive after a newer change.
 */
export function useBoardFilter() {
  const location = useLocation()
  const navigate = useNavigate()
  const [filter, setLocalFilter] = useState(() => parseBoardFilter(new URLSearchParams(location.search)))
  const latest = useRef(filter)
  const written = useRef<string[]>([])
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null)
  const current = useRef(location)
  current.current = location
  const takenOver = useRef(location.search)

  useEffect(() => {
    // At mount the filter came from this very URL; the find bar may have just set the search
    // typed before the page had its script (its effect runs before this one).
    if (takenOver.current === location.search) return
    takenOver.current = location.search
    const fromUrl = parseBoardFilter(new URLSearchParams(location.search))
    const key = filterKey(fromUrl)
    const own = written.current.indexOf(key)
    if (own !== -1) {
      written.current = written.current.slice(own + 1)
      return
    }
    written.current = []
    if (filterKey(latest.current) === key) return
    latest.current = fromUrl
    setLocalFilter(fromUrl)
  }, [location.search])
  useEffect(() => () => clearTimeout(pending.current ?? undefined), [])

  /** The page's query with the filter as last set (the URL may still lag behind while typing). */
  const query = useCallback(
    () => queryString(writeBoardFilter(new URLSearchParams(current.current.search), latest.current)),
    [],
  )
  const writeUrl = useCallback(() => {
    clearTimeout(pending.current ?? undefined)
    pending.current = null
    const { pathname, search, hash } = current.current
    const next = query()
    if (next === search) return
    written.current.push(filterKey(latest.current))
    navigate({ pathname, search: next, hash }, { replace: true, preventScrollReset: true })
  }, [navigate, query])

  const setFilter: SetFilter = useCallback(
    (next, options) => {
      latest.current = next
      setLocalFilter(next)
      clearTimeout(pending.current ?? undefined)
      if (options?.typing) pending.current = setTimeout(writeUrl, TYPING_PAUSE_MS)
      else writeUrl()
    },
    [writeUrl],
  )
  return { filter, setFilter, query, search: location.search }
}
