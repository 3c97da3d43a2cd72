/** Live regions stay outside a modal's inert part: what they say (a failed save, a toast) is still read out. */
const LIVE = '[aria-live], [role="status"], [role="alert"], [role="log"]'

/**
 * Makes everything in the page but `keep` (a modal dialog) inert: not focusable, not clickable,
 * not in the accessibility tree, so a screen reader's virtual cursor cannot wander onto the board
 * behind the dialog. Live regions, and the elements on the way to them, are left as they are.
 * Returns the undo. Elements inert already (behind an outer dialog) are left to it.
 */
export function inertOutside(keep: Element): () => void {
  const changed: Element[] = []
  const hide = (element: Element) => {
    if (
      element.hasAttribute('inert') ||
      element.matches(LIVE) ||
      ['SCRIPT', 'STYLE', 'TEMPLATE'].includes(element.tagName)
    )
      return
    if (element.querySelector(LIVE)) {
      for (const child of element.children) hide(child)
      return
    }
    element.setAttribute('inert', '')
    changed.push(element)
  }
  for (let node: Element = keep; node.parentElement && node !== document.body; node = node.parentElement) {
    for (const sibling of node.parentElement.children) if (sibling !== node) hide(sibling)
  }
  return () => {
    for (const element of changed) element.removeAttribute('inert')
  }
}
