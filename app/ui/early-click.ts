/**
 * Clicks that land before the page has hydrated (ADR 24): its HTML is there, its script still
 * loading or running (a big map, a slow phone). Two kinds are held, the latest click only:
 * - a card: a link, so the click would leave the page for the card's own URL, a second load of
 *   the whole board. Its address is kept and the board opens its dialog in place as soon as it
 *   can (OpenCardProvider); if it still cannot after HELD_CLICK_FALLBACK_MS (its script failed to
 *   load, say), the click goes the browser's way after all. A modified click keeps the browser's way.
 * - a control that works only with the script (SCRIPT_CONTROLS): it is marked busy until the page
 *   has hydrated, then clicked again (replayHeldClick).
 *
 * `holdEarlyClicks` and `earlyClickOf` run as an inline script in the page's head, so they must
 * stay self-contained: no imports, no outside names.
 */
export const HELD_CLICK_FALLBACK_MS = 8000

/**
 * Controls whose click does nothing without the page's script: buttons that submit nothing, and
 * checkboxes outside a form. Links and a form's own buttons work without it.
 */
export const SCRIPT_CONTROLS =
  "button[type='button']:not([aria-disabled='true']), input[type='checkbox']:not(form *)"

type EarlyWindow = { __storymapReady?: boolean; __storymapHeldCard?: string; __storymapHeldControl?: Element }
type Click = Pick<MouseEvent, 'button' | 'target' | 'metaKey' | 'ctrlKey' | 'shiftKey' | 'altKey'>

/** What a click before hydration holds: a script-driven control, a card's address, or nothing. */
export function earlyClickOf(event: Click, controls: string): { control?: Element; card?: string } | null {
  if (event.button !== 0 || !(event.target instanceof Element)) return null
  const control = event.target.closest(controls)
  if (control) return { control }
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return null
  const card = event.target.closest('a.card-tile')?.getAttribute('href')
  return card ? { card } : null
}

/** The head script: holds the clicks earlyClickOf picks until the page has hydrated (or, for a card, fallbackMs). */
export function holdEarlyClicks(fallbackMs: number, controls: string, clickOf: typeof earlyClickOf) {
  const early = window as unknown as EarlyWindow
  document.addEventListener(
    'click',
    (event) => {
      const held = early.__storymapReady ? null : clickOf(event, controls)
      if (!held) return
      // Nobody else gets it: React, hydrating, would otherwise handle it too.
      event.preventDefault()
      event.stopImmediatePropagation()
      early.__storymapHeldControl?.removeAttribute('aria-busy')
      early.__storymapHeldControl = held.control
      early.__storymapHeldCard = held.card
      held.control?.setAttribute('aria-busy', 'true')
      document.documentElement.classList.toggle('card-opening', !!held.card)
      const card = held.card
      if (!card) return
      setTimeout(() => {
        if (!early.__storymapReady && early.__storymapHeldCard === card) location.assign(card)
      }, fallbackMs)
    },
    true,
  )
}

export const HOLD_EARLY_CLICKS = `(${holdEarlyClicks.toString()})(${HELD_CLICK_FALLBACK_MS},${JSON.stringify(SCRIPT_CONTROLS)},${earlyClickOf.toString()})`

/** The card clicked before the board could open it, if any (the board opens it in place). */
export function takeHeldCardClick(): string | undefined {
  const early = window as unknown as EarlyWindow
  document.documentElement.classList.remove('card-opening')
  const held = early.__storymapHeldCard
  delete early.__storymapHeldCard
  return held
}

/**
 * Called once the page has hydrated, after the board has taken its card (effects run inside out):
 * from now on no click is held, and a control clicked before is clicked again.
 */
export function replayHeldClick() {
  const early = window as unknown as EarlyWindow
  early.__storymapReady = true
  const control = early.__storymapHeldControl
  delete early.__storymapHeldControl
  control?.removeAttribute('aria-busy')
  // Not in the page when React had to render it anew (a hydration mismatch): nothing to click.
  if (control instanceof HTMLElement && control.isConnected) control.click()
}
