/**
 * A click on a card before the page has hydrated (its JavaScript still loading or running on a
 * big map) would leave the page for the card's own URL: a second load of the whole board. Instead
 * the click is held, and the board opens that card's dialog as soon as it can (OpenCardProvider).
 *
 * `holdEarlyCardClicks` runs as an inline script in the page's head, so it must stay
 * self-contained: no imports, no outside names. A modified click keeps the browser's way.
 */
export function holdEarlyCardClicks() {
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
    },
    true,
  )
}

export const HOLD_EARLY_CARD_CLICKS = `(${holdEarlyCardClicks.toString()})()`

/** Called once the board handles clicks itself: from now on no click is held; returns the one held, if any. */
export function takeHeldCardClick(): string | undefined {
  const early = window as unknown as { __storymapBoardReady?: boolean; __storymapHeldCard?: string }
  early.__storymapBoardReady = true
  const held = early.__storymapHeldCard
  delete early.__storymapHeldCard
  return held
}
