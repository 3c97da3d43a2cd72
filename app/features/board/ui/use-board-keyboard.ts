import { useEffect, useRef, useState } from 'react'
import { cardIdOfHref, neighbour, type Direction, type NavLayout } from '~/features/board/board-nav'

type Options = {
  /** The story map (null while the board is empty). */
  root: HTMLElement | null
  /** The layout of what is shown now; called on an arrow key only. */
  layout: () => NavLayout
  /** `n` on an item: its id, and its element. */
  onNew: (navId: string, item: HTMLElement) => void
  /** `c` on an item: folds or unfolds its goal or release; returns the item the focus goes to, if another. */
  onFold: (navId: string) => string | null
  onShortcuts: () => void
  onSearch: () => void
  /** True while the drag library moves a card (its keys are not ours then). */
  dragging: () => boolean
}

const ARROWS: Record<string, Direction> = {
  ArrowLeft: 'left',
  ArrowRight: 'right',
  ArrowUp: 'up',
  ArrowDown: 'down',
}
const NOT_TYPED = new Set([
  'checkbox',
  'radio',
  'button',
  'submit',
  'reset',
  'range',
  'color',
  'file',
  'image',
])

/** True when the key goes into a text field, where no shortcut may fire. */
export function typingIn(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false
  if (target.isContentEditable) return true
  if (target instanceof HTMLInputElement) return !NOT_TYPED.has(target.type)
  return target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement
}

const withModifier = (e: KeyboardEvent) => e.ctrlKey || e.metaKey || e.altKey
const modalOpen = () => document.querySelector('[role="dialog"][aria-modal="true"]') !== null
const shown = (el: Element) => !el.classList.contains('filtered-out')

/*
 * The board's items and their ids (app/features/board/board-nav.ts), read from what the page has anyway
 * rather than from an id attribute on each of thousands of elements (HTML size): a card is the
 * last segment of its link, a cell's `+` is named by its cell (`cell:{release}:{activity}`),
 * only the few `Add activity` buttons carry `data-nav`.
 */
const ITEMS = 'a.card-tile, button.add-feature, [data-nav]'

function itemId(item: HTMLElement): string | null {
  if (item.dataset.nav) return item.dataset.nav
  if (item instanceof HTMLAnchorElement) return cardIdOfHref(item.getAttribute('href') ?? '')
  const cell = item.closest<HTMLElement>('[data-cell]')?.dataset.cell
  return cell ? `add:${cell.slice('cell:'.length)}` : null
}

function itemElement(root: HTMLElement, id: string): HTMLElement | null {
  if (id.startsWith('add:')) {
    return root.querySelector(`[data-cell="cell:${CSS.escape(id.slice(4))}"] > button.add-feature`)
  }
  return (
    root.querySelector(`[data-nav="${CSS.escape(id)}"]`) ??
    root.querySelector(`a.card-tile[href*="/${CSS.escape(id)}"]`)
  )
}

/**
 * The roving tabindex's one stop, and the item that has the focus. React may make an item's
 * element anew without the board rendering (a cell group's cards becoming draggable,
 * near-viewport.tsx; a card moved by someone else): `restore` gives the stop, and the focus if
 * the old element had it, to the new element of the same item.
 */
function createRovingStop() {
  let element: HTMLElement | null = null
  let id: string | null = null
  // Removing a focused element may or may not fire focusout, so an item counts as focused until
  // focus is seen elsewhere, or until its element is still in the page a moment after focus left.
  let focused: HTMLElement | null = null
  const stop = {
    get element() {
      return element
    },
    make(next: HTMLElement) {
      if (element && element !== next) element.tabIndex = -1
      next.tabIndex = 0
      element = next
      id = itemId(next)
    },
    clear() {
      element = null
      id = null
    },
    focusIn(item: HTMLElement | null) {
      focused = item
    },
    focusOut(left: HTMLElement) {
      setTimeout(() => {
        if (focused === left && left.isConnected) focused = null
      })
    },
    restore(root: HTMLElement) {
      const old = element
      if (!old || old.isConnected || !id) return false
      const again = itemElement(root, id)
      if (!again || !shown(again)) return false
      stop.make(again)
      const active = document.activeElement
      if (focused === old && (!active || active === document.body)) again.focus({ preventScroll: true })
      return true
    },
  }
  return stop
}

/**
 * A card just created (issue 31): it takes the focus as soon as its element is in the board and
 * no dialog is open any more (the `New card` dialog gives the focus back to its opener as it
 * closes, after the card has appeared). A card the search leaves out is not waited for.
 */
function createPendingFocus() {
  let id: string | null = null
  const pending = {
    wait(cardId: string) {
      id = cardId
    },
    forget() {
      id = null
    },
    /** Focuses the card if it is there now; true when it did. */
    take(root: HTMLElement, stop: ReturnType<typeof createRovingStop>) {
      if (!id || modalOpen()) return false
      const element = itemElement(root, id)
      if (!element) return false
      id = null
      if (!shown(element)) return false
      stop.make(element)
      stop.focusIn(element)
      element.focus()
      return true
    },
  }
  return pending
}

/**
 * The board's keyboard (CONTRACT §9). A roving tabindex: of all cards and add buttons, exactly
 * one has tabindex 0 (the last one focused, else the first shown), so Tab enters the board once
 * and leaves it once. Tiles render tabindex -1 and this hook moves the 0 in the DOM directly:
 * React never rewrites an attribute whose prop did not change, and moving it by state would
 * re-render two memoised tiles per key press for nothing.
 */
export function useBoardKeyboard(options: Options) {
  const latest = useRef(options)
  latest.current = options
  const [stop] = useState(createRovingStop)
  const [created] = useState(createPendingFocus)

  // After every render: the stop must still be in the board and shown, or the first shown item takes over.
  const root = options.root
  useEffect(() => {
    if (!root) return
    if (created.take(root, stop)) return
    const current = stop.element
    if (current && current.isConnected && root.contains(current) && shown(current)) {
      if (current.tabIndex !== 0) current.tabIndex = 0
      return
    }
    if (stop.restore(root)) return
    const first = root.querySelector<HTMLElement>('a.card-tile:not(.filtered-out)')
    if (first) stop.make(first)
    else stop.clear()
  })

  useEffect(() => {
    const onPageKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || withModifier(event) || typingIn(event.target) || modalOpen()) return
      if (event.key === '/') {
        event.preventDefault()
        latest.current.onSearch()
      } else if (event.key === '?') {
        event.preventDefault()
        latest.current.onShortcuts()
      }
    }
    document.addEventListener('keydown', onPageKey)
    return () => document.removeEventListener('keydown', onPageKey)
  }, [])

  useEffect(() => {
    if (!root) return
    const onFocusIn = (event: FocusEvent) => {
      const item = (event.target as Element).closest<HTMLElement>(ITEMS)
      stop.focusIn(item)
      if (item && root.contains(item)) stop.make(item)
    }
    const onFocusOut = (event: FocusEvent) => {
      if (event.relatedTarget instanceof Node && root.contains(event.relatedTarget)) return
      stop.focusOut(event.target as HTMLElement)
    }
    const onBoardKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || withModifier(event) || latest.current.dragging()) return
      const item = (event.target as Element).closest<HTMLElement>(ITEMS)
      const id = item && root.contains(item) ? itemId(item) : null
      if (!id) return
      const direction = ARROWS[event.key]
      if (direction) {
        event.preventDefault()
        const next = neighbour(latest.current.layout(), id, direction)
        if (next) itemElement(root, next)?.focus()
      } else if (event.key === 'n' && !event.shiftKey) {
        event.preventDefault()
        latest.current.onNew(id, item!)
      } else if (event.key === 'c' && !event.shiftKey) {
        event.preventDefault()
        // From an activity its goal folds and the activity leaves the page: its goal's card takes the focus.
        const next = latest.current.onFold(id)
        if (next) itemElement(root, next)?.focus()
      }
    }
    const observer = new MutationObserver(() => created.take(root, stop) || stop.restore(root))
    observer.observe(root, { childList: true, subtree: true })
    root.addEventListener('focusin', onFocusIn)
    root.addEventListener('focusout', onFocusOut)
    root.addEventListener('keydown', onBoardKey)
    return () => {
      observer.disconnect()
      root.removeEventListener('focusin', onFocusIn)
      root.removeEventListener('focusout', onFocusOut)
      root.removeEventListener('keydown', onBoardKey)
    }
  }, [root, stop, created])

  // Any key or press of the user's ends the wait for a created card: it cannot take the focus later.
  useEffect(() => {
    const forget = () => created.forget()
    document.addEventListener('keydown', forget, true)
    document.addEventListener('pointerdown', forget, true)
    return () => {
      document.removeEventListener('keydown', forget, true)
      document.removeEventListener('pointerdown', forget, true)
    }
  }, [created])

  return { focusWhenShown: created.wait }
}
