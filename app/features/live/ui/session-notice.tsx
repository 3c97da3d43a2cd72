import { useRouteLoaderData } from 'react-router'
import { useEffect, useId, useRef, useState, useSyncExternalStore, type FormEvent } from 'react'
import { boardOutbox } from '~/features/board/ui'
import { Modal } from '~/ui/modal'
import { checkSession } from '~/features/board/ui'

const noSubscription = () => () => undefined
const SIGNED_OUT_TEXT = 'You were signed out: log in to save your changes'
const LOGIN_FAILED = 'Email or password is incorrect.'

/** Looked at again this often while signed out, for a log-in made in another tab. */
const RECHECK_MS = 10_000

/**
 * The session ended while the board was open (a log-out in another tab, a password reset
 * elsewhere: issue 43). The board stays, with everything typed and every edit kept in the outbox;
 * this says so and lets the member log in again, in a dialog or another tab, after which the
 * outbox sends the edits and the live stream catches up.
 */
export function SessionNotice({ me }: { me: { memberId: string; name: string } }) {
  const signedOut = useSyncExternalStore(
    boardOutbox?.subscribe ?? noSubscription,
    () => boardOutbox?.getState().signedOut ?? false,
    () => false,
  )
  const [loggingIn, setLoggingIn] = useState(false)
  const email = useRouteLoaderData<{ account?: { email: string } }>('routes/$workspace')?.account?.email ?? ''
  // This page offers a new log-in: the outbox holds writes the server refuses for want of a session.
  useEffect(() => boardOutbox?.holdWhileSignedOut(), [])

  // Where the member was (typing a description, say): focus goes back there after the log-in.
  const returnTo = useRef<HTMLElement | null>(null)
  useEffect(() => {
    if (!signedOut) {
      if (returnTo.current && document.contains(returnTo.current)) returnTo.current.focus()
      returnTo.current = null
      return
    }
    returnTo.current = document.activeElement instanceof HTMLElement ? document.activeElement : null
    const onFocus = (event: FocusEvent) => {
      const target = event.target
      if (target instanceof HTMLElement && !target.closest('.session-notice')) returnTo.current = target
    }
    document.addEventListener('focusin', onFocus)
    return () => document.removeEventListener('focusin', onFocus)
  }, [signedOut])

  // A log-in in another tab (single sign-on, or the log-in page) is noticed when this tab is
  // looked at again, or within RECHECK_MS.
  useEffect(() => {
    if (!signedOut) return
    const recheck = async () => {
      if ((await checkSession(me.memberId)) === 'signed-in') boardOutbox?.signedInAgain()
    }
    const onVisible = () => document.visibilityState === 'visible' && void recheck()
    window.addEventListener('focus', onVisible)
    document.addEventListener('visibilitychange', onVisible)
    const timer = window.setInterval(() => void recheck(), RECHECK_MS)
    return () => {
      window.removeEventListener('focus', onVisible)
      document.removeEventListener('visibilitychange', onVisible)
      window.clearInterval(timer)
    }
  }, [signedOut, me.memberId])

  if (!signedOut) return null
  const here = typeof window === 'undefined' ? '/' : window.location.pathname + window.location.search
  return (
    <div className="session-notice" role="alert">
      <p className="banner warn">
        <strong>{SIGNED_OUT_TEXT}</strong>{' '}
        <button type="button" className="button small" onClick={() => setLoggingIn(true)}>
          Log in
        </button>{' '}
        <span className="small">
          or{' '}
          <a href={`/account/login?redirectTo=${encodeURIComponent(here)}`} target="_blank" rel="noreferrer">
            log in in a new tab
          </a>
          . Nothing you typed or changed is lost meanwhile.
        </span>
      </p>
      {loggingIn ? <LoginDialog email={email} me={me} onClose={() => setLoggingIn(false)} /> : null}
    </div>
  )
}

/** Logs in again without leaving the board (`POST /v1/users/login`), as the member the board was opened by. */
function LoginDialog({
  email: knownEmail,
  me,
  onClose,
}: {
  email: string
  me: { memberId: string; name: string }
  onClose: () => void
}) {
  const id = useId()
  const [email, setEmail] = useState(knownEmail)
  const [password, setPassword] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setBusy(true)
    setError(null)
    try {
      const res = await fetch('/v1/users/login', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify({ email, password }),
      })
      if (!res.ok) {
        const body = (await res.json().catch(() => null)) as { error?: string; message?: string } | null
        setError(body?.error === 'login_failed' || !body?.message ? LOGIN_FAILED : body.message)
        return
      }
      const session = await checkSession(me.memberId)
      if (session !== 'signed-in') {
        setError(`These changes were made as ${me.name}: log in with that account to save them.`)
        return
      }
      onClose()
      boardOutbox?.signedInAgain()
    } catch {
      setError('The server cannot be reached. Try again in a moment.')
    } finally {
      setBusy(false)
    }
  }
  return (
    <Modal title="Log in to save your changes" onClose={onClose}>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <div className="field">
          <label htmlFor={`${id}-email`}>Email</label>
          <input
            id={`${id}-email`}
            type="email"
            autoComplete="email"
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-password`}>Password</label>
          <input
            id={`${id}-password`}
            type="password"
            autoComplete="current-password"
            autoFocus
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
          />
        </div>
        {error ? (
          <p className="errors-text" role="alert">
            {error}
          </p>
        ) : null}
        <div className="row end">
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button primary" disabled={busy}>
            Log in
          </button>
        </div>
      </form>
    </Modal>
  )
}
