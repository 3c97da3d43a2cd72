import { lazy, type RefObject, Suspense } from 'react'
import { useBoard } from '~/features/board/ui'
import { tokenExpiringText, trackerStoppedText } from '../tracker-words'
import { useRefreshOnNotice, useReturnFocus } from './tracker-parts'

// Loaded when first opened: the dialog and its forms are not the board's to carry.
const TrackerDialog = lazy(() => import('./tracker-dialog').then((m) => ({ default: m.TrackerDialog })))

const ABOUT_TRACKERS = /GitLab|Jira|tracker/

/**
 * The tracker parts of a member's board (CONTRACT §14): the banners (`{Provider} sync stopped:
 * the token was refused.`, `The {Provider} token expires on {date}.`), the Tracker dialog, and a
 * refresh when a tracker notice arrives live. GitHub's refused token keeps §13's own banner.
 */
export function TrackerBoard({
  open,
  setOpen,
  returnFocus,
}: {
  open: boolean
  setOpen: (open: boolean) => void
  returnFocus: RefObject<HTMLElement | null>
}) {
  const { mode, bundle } = useBoard()
  useRefreshOnNotice(ABOUT_TRACKERS)
  useReturnFocus(open, returnFocus)
  if (mode === 'demo') return null
  const tracker = bundle.project.tracker
  return (
    <>
      {tracker && tracker.provider !== 'github' && tracker.status === 'token_invalid' ? (
        <p className="github-stopped" role="alert">
          {trackerStoppedText(tracker.provider)}{' '}
          <button type="button" className="link-button" onClick={() => setOpen(true)}>
            Fix the link
          </button>
        </p>
      ) : null}
      {tracker?.status === 'token_expiring' && tracker.tokenExpiresAt ? (
        <p className="github-stopped" role="status">
          {tokenExpiringText(tracker.provider, tracker.tokenExpiresAt)}
        </p>
      ) : null}
      {open ? (
        <Suspense fallback={null}>
          <TrackerDialog onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </>
  )
}
