import { useEffect, useSyncExternalStore } from 'react'
import { boardOutbox, type OutboxState } from '~/features/board/ui'
import { unsavedDrafts } from '~/features/board/ui'

const NOTHING_WAITING: OutboxState = { offline: false, signedOut: false, waiting: 0 }
const noSubscription = () => () => undefined

function subscribeToNetwork(listener: () => void) {
  window.addEventListener('online', listener)
  window.addEventListener('offline', listener)
  return () => {
    window.removeEventListener('online', listener)
    window.removeEventListener('offline', listener)
  }
}

/** The browser has no network (false on the server and before hydration). */
function useBrowserOffline(): boolean {
  return useSyncExternalStore(
    subscribeToNetwork,
    () => !navigator.onLine,
    () => false,
  )
}

const changes = (n: number) => (n === 1 ? '1 change is' : `${n} changes are`)

/**
 * Says when the board cannot reach the server, and that edits made meanwhile are kept and will
 * be saved (the outbox sends them, in order, once the connection is back).
 */
export function ConnectionNotice({ editable }: { editable: boolean }) {
  const outbox = useSyncExternalStore(
    boardOutbox?.subscribe ?? noSubscription,
    boardOutbox?.getState ?? (() => NOTHING_WAITING),
    () => NOTHING_WAITING,
  )
  const browserOffline = useBrowserOffline()
  const away = browserOffline || outbox.offline
  const unsaved = (away || outbox.signedOut) && outbox.waiting > 0
  // Waiting changes live in this page only: leaving it would lose them, so the browser asks first.
  // Signed out, so would anything typed: leaving goes to the log-in page.
  const typedWhileSignedOut = outbox.signedOut
  useEffect(() => {
    if (!unsaved && !typedWhileSignedOut) return
    const ask = (event: BeforeUnloadEvent) => {
      if (unsaved || unsavedDrafts().length > 0) event.preventDefault()
    }
    window.addEventListener('beforeunload', ask)
    return () => window.removeEventListener('beforeunload', ask)
  }, [unsaved, typedWhileSignedOut])
  return (
    <div className="connection-notice" role="status">
      {away ? (
        <p className="banner warn">
          <strong>{browserOffline ? 'You are offline.' : 'The server cannot be reached.'}</strong>{' '}
          {editable
            ? outbox.waiting > 0
              ? `${changes(outbox.waiting)} waiting and will be saved when the connection is back.`
              : 'Changes you make will be saved when the connection is back.'
            : 'The map will catch up when the connection is back.'}
        </p>
      ) : null}
    </div>
  )
}
