/**
 * A click on a card before the page has hydrated (its JavaScript still loading or running on a
 * big map) would leave the page for the card's own URL: a second load of the whole board. Instead
 * the click is held, and the board opens that card's dialog as soon as it can (OpenCardProvider).
 *
 * `holdEarlyCardClicks` runs as an inline script in the page's head, so it must stay
 * self-contained: no imports, no outside names. A modified click keeps the browser's way. While a
 * click is held the pointer shows progress; if the board is still not ready after
 * HELD_CLICK_FALLBACK_MS (its script failed to load, say), the click goes the browser's way after all.
 */
export const HELD_CLICK_FALLBACK_MS = 8000

export function holdEarlyCardClicks(fallbackMs: number) {
  const early = window as unknown as { __storymapBoardReady?: boolean; __storymapHeldCard?: string }
  document.addEventListener(
    'click',
    (event) => {
      if (early.__storymapBoardReady || event.button !== 0) return
      if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
      const tile = event.target instanceof Element ? event.target.closest('a.card-tile') : null
      const href = tile?.getAttribute('href')
      if (!href) return
      event.preventDefault()
      early.__storymapHeldCard = href
      document.documentElement.classList.add('card-opening')
      setTimeout(() => {
        if (early.__storymapBoardReady || early.__storymapHeldCard !== href) return
        location.assign(href)
      }, fallbackMs)
    },
    true,
  )
}

export const HOLD_EARLY_CARD_CLICKS = `(${holdEarlyCardClicks.toString()})(${HELD_CLICK_FALLBACK_MS})`

/** Called once the board handles clicks itself: from now on no click is held; returns the one held, if any. */
export function takeHeldCardClick(): string | undefined {
  const early = window as unknown as { __storymapBoardReady?: boolean; __storymapHeldCard?: string }
  early.__storymapBoardReady = true
  document.documentElement.classList.remove('card-opening')
  const held = early.__storymapHeldCard
  delete early.__storymapHeldCard
  return held
}
