import { useEffect, useRef, type RefObject } from 'react'
import { useBoard } from '~/features/board/ui'
import { GithubDialog } from './github-dialog'
import { GithubStoppedNotice } from './issue-controls'
import { useGithubNotices } from './use-github'

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
  useGithubNotices()
  const wasOpen = useRef(open)
  useEffect(() => {
    // The dialog's own clean-up has run by now: it gave focus back when its opener was still there.
    if (
      wasOpen.current &&
      !open &&
      (document.activeElement === null || document.activeElement === document.body)
    )
      returnFocus.current?.focus()
    wasOpen.current = open
  }, [open, returnFocus])
  if (mode === 'demo') return null
  return (
    <>
      <GithubStoppedNotice canLink={canLink} onFix={() => setOpen(true)} />
      {open ? <GithubDialog onClose={() => setOpen(false)} /> : null}
    </>
  )
}
