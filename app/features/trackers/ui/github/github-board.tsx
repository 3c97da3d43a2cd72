import { lazy, type RefObject, Suspense } from 'react'
import { useBoard } from '~/features/board/ui'
import { useRefreshOnNotice, useReturnFocus } from '../tracker-parts'
import { GithubStoppedNotice } from './issue-controls'

// Loaded when first opened: the dialog and its forms are not the board's to carry.
const GithubDialog = lazy(() => import('./github-dialog').then((m) => ({ default: m.GithubDialog })))

/** Linking, unlinking and a refused token are Activity lines with no card changes: those about GitHub read the page again. */
const ABOUT_GITHUB = /GitHub/

/**
 * The GitHub parts of a member's board: the refused-token notice, the GitHub dialog, and the
 * live refresh of the link. Not on the public link or in demo mode. When the dialog closes and
 * what opened it is gone (the menu's item, the notice once the link is fixed), focus returns to
 * `returnFocus` (the board's `⋯` button).
 */
export function GithubBoard({
  open,
  setOpen,
  returnFocus,
  canLink,
}: {
  open: boolean
  setOpen: (open: boolean) => void
  returnFocus: RefObject<HTMLElement | null>
  /** The member may link, relink and unlink (OWNER, ADMIN). */
  canLink: boolean
}) {
  const { mode } = useBoard()
  useRefreshOnNotice(ABOUT_GITHUB)
  useReturnFocus(open, returnFocus)
  if (mode === 'demo') return null
  return (
    <>
      <GithubStoppedNotice canLink={canLink} onFix={() => setOpen(true)} />
      {open ? (
        <Suspense fallback={null}>
          <GithubDialog onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </>
  )
}
