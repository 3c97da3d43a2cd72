import { PAGE_MAP_ID, pageMapText } from '~/features/map/bundle-text'
import { useNonce } from '~/http/nonce'

/**
 * The element a whole board page carries its map in (bundle-text.ts), while the loader's answer
 * leaves the map to it. The browser renders it empty: hydration keeps the server's text, and
 * the same empty text later changes nothing. It goes once fresher data carries the map itself;
 * it comes after the board, so the cards come first in the page and nothing moves when it goes.
 * Data, not a script, yet it carries the page's nonce like every script element of ours (a
 * script element without one is what an injection looks like).
 */
export function PageMap({ answer }: { answer: { bundleText: string | null } }) {
  const nonce = useNonce()
  if (answer.bundleText !== null) return null
  const text = typeof document === 'undefined' ? (pageMapText(answer) ?? '') : ''
  return (
    <script
      type="application/json"
      id={PAGE_MAP_ID}
      nonce={nonce}
      dangerouslySetInnerHTML={{ __html: text }}
      suppressHydrationWarning
    />
  )
}
