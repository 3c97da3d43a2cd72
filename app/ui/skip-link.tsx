import { useMatches } from 'react-router'

/** A route's `handle` may ask for a skip link: the first thing Tab reaches on its pages. */
export type SkipLinkHandle = { skipLink?: { target: string; label: string } }

/**
 * `Skip to board` (WCAG 2.4.1): past the header and toolbar to the board. The board is one Tab
 * stop (its roving card), so the link gives that card the focus; without script it is a plain
 * link to the board's element.
 */
export function SkipLink() {
  const link = useMatches()
    .map((match) => (match.handle as SkipLinkHandle | undefined)?.skipLink)
    .filter((found) => found !== undefined)
    .pop()
  if (!link) return null
  return (
    <a
      className="skip-link"
      href={`#${link.target}`}
      onClick={(event) => {
        const target = document.getElementById(link.target)
        const stop = target?.querySelector<HTMLElement>('[tabindex="0"], button:not([tabindex="-1"])')
        if (!stop) return
        event.preventDefault()
        stop.focus()
      }}
    >
      {link.label}
    </a>
  )
}
