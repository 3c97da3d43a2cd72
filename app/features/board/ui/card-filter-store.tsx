import { createContext, useContext, type ReactNode } from 'react'
import type { CardFilterState } from '~/features/board/board-view'
import { cardIdOfHref } from '~/features/board/board-nav'
import { parseRangesKey } from '~/features/board/text-search'

/**
 * What the search and filters do to each feature card: hidden (the `filtered-out` class) and
 * its title's matches highlighted (the CSS Custom Highlight API, `::highlight(card-search)`).
 * Both are applied to the tiles' elements directly, not through React: a keystroke that hides
 * or shows thousands of cards of a big map re-renders none of them (rendering the tiles, and the
 * drag library's wrappers around them, took most of a keystroke's time). A tile reads its state
 * when it renders, so the server's HTML and every later render agree with the store; tiles need
 * no hook of their own, which keeps the board's hydration as quick as before.
 */
export type CardFilterStore = {
  get: (id: string) => CardFilterState
  /** Takes the new states and applies those that changed to the tiles under `root`. */
  update: (next: ReadonlyMap<string, CardFilterState>, root: HTMLElement | null) => void
  /** Applies every state (the highlights, which the server cannot send) after the board mounts. */
  applyAll: (root: HTMLElement | null) => void
  /** Applies the states of the tiles under `part` again, after React made them anew. */
  refresh: (part: HTMLElement) => void
}

const SHOWN: CardFilterState = { hidden: false, marks: undefined }
const same = (a: CardFilterState, b: CardFilterState) => a.hidden === b.hidden && a.marks === b.marks
export const HIGHLIGHT_NAME = 'card-search'

type HighlightApi = {
  registry: { set: (name: string, highlight: unknown) => void }
  Highlight: new (...ranges: Range[]) => unknown
}

/** The CSS Custom Highlight API, where the browser has it (else matches are not highlighted). */
function highlightApi(): HighlightApi | null {
  const registry =
    typeof CSS === 'undefined'
      ? undefined
      : (CSS as unknown as { highlights?: HighlightApi['registry'] }).highlights
  const Highlight = (globalThis as unknown as { Highlight?: HighlightApi['Highlight'] }).Highlight
  return registry && Highlight ? { registry, Highlight } : null
}

/** The text node of a tile's title: in its `.card-title`, or the tile's own at 25 % (a one-element tile). */
const titleText = (tile: HTMLElement) =>
  (tile.classList.contains('tiny') ? tile : tile.querySelector('.card-title'))?.firstChild

/** Feature tiles by card id (the last segment of their link), found in one pass. */
function featureTiles(root: HTMLElement) {
  const tiles = new Map<string, HTMLAnchorElement>()
  for (const tile of root.querySelectorAll<HTMLAnchorElement>('a.feature-card')) {
    tiles.set(cardIdOfHref(tile.getAttribute('href') ?? ''), tile)
  }
  return tiles
}

export function createCardFilterStore(initial: ReadonlyMap<string, CardFilterState>): CardFilterStore {
  let states = initial
  // Each marked card's ranges; the page's highlight is rebuilt from them once per change
  // (adding and deleting thousands of ranges one by one cost more than a new highlight).
  const ranges = new Map<string, Range[]>()
  let api: HighlightApi | null | undefined

  const apply = (id: string, tile: HTMLElement | undefined) => {
    const state = states.get(id) ?? SHOWN
    ranges.delete(id)
    if (!tile) return
    tile.classList.toggle('filtered-out', state.hidden)
    const text = state.marks && !state.hidden ? titleText(tile) : null
    if (!text || text.nodeType !== Node.TEXT_NODE) return
    const length = (text as Text).length
    ranges.set(
      id,
      parseRangesKey(state.marks!)
        .filter(([start, end]) => end <= length && start < end)
        .map(([start, end]) => {
          const range = document.createRange()
          range.setStart(text, start)
          range.setEnd(text, end)
          return range
        }),
    )
  }
  const highlight = () => {
    api ??= highlightApi()
    api?.registry.set(HIGHLIGHT_NAME, new api.Highlight(...[...ranges.values()].flat()))
  }

  return {
    get: (id) => states.get(id) ?? SHOWN,
    update(next, root) {
      const before = states
      states = next
      const changed: string[] = []
      for (const [id, state] of next) if (!same(before.get(id) ?? SHOWN, state)) changed.push(id)
      for (const [id, state] of before) if (!next.has(id) && !same(state, SHOWN)) changed.push(id)
      // A marked tile that React replaced (moved to another cell) needs its ranges again.
      for (const [id, own] of ranges)
        if (own.length > 0 && !own[0].startContainer.isConnected) changed.push(id)
      if (changed.length === 0 || !root) return
      const tiles = featureTiles(root)
      for (const id of changed) apply(id, tiles.get(id))
      highlight()
    },
    applyAll(root) {
      if (!root || states.size === 0) return
      const tiles = featureTiles(root)
      for (const id of states.keys()) apply(id, tiles.get(id))
      highlight()
    },
    refresh(part) {
      const tiles = featureTiles(part)
      let marked = false
      for (const [id, tile] of tiles) {
        const state = states.get(id)
        if (!state) continue
        apply(id, tile)
        marked ||= state.marks !== undefined
      }
      if (marked) highlight()
    },
  }
}

const StoreContext = createContext<CardFilterStore | null>(null)

export function CardFilterProvider({ store, children }: { store: CardFilterStore; children: ReactNode }) {
  return <StoreContext.Provider value={store}>{children}</StoreContext.Provider>
}

export const useCardFilterStore = () => useContext(StoreContext)

/** Whether a feature tile is left out when it renders; null `id` (goals, activities, releases): never. */
export function useFilteredOut(id: string | null): boolean {
  const store = useContext(StoreContext)
  return store !== null && id !== null && store.get(id).hidden
}
