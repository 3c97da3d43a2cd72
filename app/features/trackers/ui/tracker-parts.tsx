import { useEffect, useRef, useState, type RefObject } from 'react'
import { useFetcher, useRevalidator } from 'react-router'
import { useBoard } from '~/features/board/ui'

/**
 * What §13's GitHub dialog and buttons and §14's Tracker dialog and buttons share: the board's
 * refresh on a tracker notice, focus given back when a dialog closes, the link's `Sync now` and
 * `Unlink` (asked first), a new issue's link taking the focus, and a release's send button.
 */

/** Open boards follow a link live: a notice (no card changes) whose summary matches reads the page's data again. */
export function useRefreshOnNotice(pattern: RegExp) {
  const { live } = useBoard()
  const { revalidate } = useRevalidator()
  const subscribe = live?.subscribe
  useEffect(
    () =>
      subscribe?.((event) => {
        const summary = (event as { summary?: string }).summary ?? ''
        if (event.changes.length === 0 && pattern.test(summary)) revalidate()
      }),
    [subscribe, revalidate, pattern],
  )
}

/** When the dialog closes and what opened it is gone, focus returns to `returnFocus` (the board's `⋯`). */
export function useReturnFocus(open: boolean, returnFocus: RefObject<HTMLElement | null>) {
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
}

/** Unlink asks first; Cancel gives the focus back to Unlink. */
export function useUnlinkQuestion() {
  const [confirming, setConfirming] = useState(false)
  const unlinkButton = useRef<HTMLButtonElement>(null)
  const wasConfirming = useRef(false)
  useEffect(() => {
    if (wasConfirming.current && !confirming) unlinkButton.current?.focus()
    wasConfirming.current = confirming
  }, [confirming])
  /** After `Yes, unlink` the outcome takes the focus, not Unlink. */
  const answered = () => {
    wasConfirming.current = false
    setConfirming(false)
  }
  return { confirming, setConfirming, unlinkButton, answered }
}

/** The link's last sync, `Sync now` (EDITOR and up) and `Unlink` (OWNER, ADMIN; hidden while its question shows). */
export function LinkButtons({
  lastSyncAt,
  canEdit,
  canLink,
  busy,
  unlink,
  onSync,
}: {
  lastSyncAt: string | null
  canEdit: boolean
  canLink: boolean
  busy: boolean
  unlink: ReturnType<typeof useUnlinkQuestion>
  onSync: () => void
}) {
  return (
    <>
      <p className="small muted">
        {lastSyncAt ? `Last sync ${new Date(lastSyncAt).toLocaleString()}` : 'Not synced yet.'}
      </p>
      <div className="row">
        {canEdit ? (
          <button type="button" className="button small" disabled={busy} onClick={onSync}>
            Sync now
          </button>
        ) : null}
        {canLink && !unlink.confirming ? (
          <button
            ref={unlink.unlinkButton}
            type="button"
            className="button small danger"
            disabled={busy}
            onClick={() => unlink.setConfirming(true)}
          >
            Unlink
          </button>
        ) : null}
      </div>
    </>
  )
}

/** A feature's issue as the card dialog shows it. */
export type IssueShown = { label: string; key: string; url: string; state: string; shown: string }

/**
 * The card dialog's issue line (`GitHub issue #12 open`), or its `Create … issue` button when the
 * member may make one (`create` null: nothing). Once the issue exists the button is gone: the
 * issue's link takes the focus instead of the page.
 */
export function FeatureIssueView({
  issue,
  create,
  busy,
  onCreate,
}: {
  issue: IssueShown | null
  create: { label: string; busyLabel: string } | null
  busy: boolean
  onCreate: () => void
}) {
  const asked = useRef(false)
  const issueLink = useRef<HTMLAnchorElement>(null)
  useEffect(() => {
    if (!issue || !asked.current) return
    asked.current = false
    issueLink.current?.focus()
  }, [issue])
  if (issue)
    return (
      <p className="github-issue">
        {issue.label} issue{' '}
        <a ref={issueLink} href={issue.url} target="_blank" rel="noreferrer">
          {issue.key}
        </a>{' '}
        <span className={`issue-state ${issue.state}`}>{issue.shown}</span>
      </p>
    )
  if (!create) return null
  return (
    <button
      type="button"
      className="button wide"
      disabled={busy}
      onClick={() => {
        asked.current = true
        onCreate()
      }}
    >
      {busy ? create.busyLabel : create.label}
    </button>
  )
}

/** The Tracker and GitHub dialogs' data, read again after each operation; the webhook secret a link answered. */
export function useDialogData<T>(path: string, result: { webhookSecret?: string } | undefined) {
  const data = useFetcher<T>()
  const [secret, setSecret] = useState<string | null>(null)
  const load = data.load
  useEffect(() => {
    load(path)
  }, [load, path, result])
  useEffect(() => {
    if (result?.webhookSecret) setSecret(result.webhookSecret)
  }, [result])
  return { info: data.data, secret }
}

/** A release's `Send to …` button, with what it made beside it until the dialog closes. */
export function SendReleaseView({
  label,
  busyLabel,
  busy,
  result,
  onSend,
}: {
  label: string
  busyLabel: string
  busy: boolean
  result: { ok?: boolean; message?: string } | undefined
  onSend: () => void
}) {
  return (
    <div className="send-release">
      <button type="button" className="button wide" disabled={busy} onClick={onSend}>
        {busy ? busyLabel : label}
      </button>
      {result ? (
        <p className={`small ${result.ok ? '' : 'errors-text'}`} role={result.ok ? 'status' : 'alert'}>
          {result.message ?? 'Something went wrong.'}
        </p>
      ) : null}
    </div>
  )
}
