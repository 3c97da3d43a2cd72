import { useEffect, useId, useRef, useState, type FormEvent } from 'react'
import { Modal } from '~/ui/modal'
import { CopyButton } from '~/ui/copy-button'
import type { GithubLink } from '~/features/map/bundle-types'
import { useBoard } from '~/features/board/ui'
import { REPOSITORY_PATTERN } from '../../github/github-mapping'
import { STATUS_TEXT, unlinkQuestion } from '../../github/github-texts'
import { ImportForm } from '../tracker-forms'
import { LinkButtons, useDialogData, useUnlinkQuestion } from '../tracker-parts'
import { useGithubAction } from './use-github'
import { ActionAndCancel } from '~/ui/action-and-cancel'

/**
 * The board's `⋯` → `GitHub` (CONTRACT §13): the link's status, `Sync now`, the sync log,
 * linking (a token checked at once, never shown again), relinking and unlinking, and `Import
 * issues` into a cell. What a member may do follows their level.
 */
type LogItem = {
  at: string
  direction: string
  featureId: string | null
  issue: number | null
  action: string
  status: string
  error: string | null
}
type DialogData = {
  github: GithubLink | null
  repositoryUrl: string | null
  items: LogItem[]
  canLink: boolean
  canEdit: boolean
  pendingPushes: number
}

const when = (iso: string) => new Date(iso).toLocaleString()

export function GithubDialog({ onClose }: { onClose: () => void }) {
  const { basePath, baseUrl, bundle } = useBoard()
  const action = useGithubAction('github-dialog')
  // Cancel gives the focus back to Unlink (after `Yes, unlink` the outcome takes it, below).
  const unlink = useUnlinkQuestion()
  const { result } = action
  const { info, secret } = useDialogData<DialogData>(`${basePath}/github`, result)
  // When the control used is gone (Unlink's section, once the link is read again), focus goes
  // to the outcome rather than the page.
  const outcome = useRef<HTMLParagraphElement>(null)
  useEffect(() => {
    const dialog = outcome.current?.closest('[role="dialog"]')
    if (dialog && !dialog.contains(document.activeElement)) outcome.current?.focus()
  }, [result, info])
  const github = info?.github ?? null
  return (
    <Modal title="GitHub" onClose={onClose} className="github-dialog">
      {!info ? <p className="muted">Loading…</p> : null}
      {result ? (
        <p
          ref={outcome}
          tabIndex={-1}
          className={result.ok ? 'success-text' : 'errors-text'}
          role={result.ok ? 'status' : 'alert'}
        >
          {result.message}
        </p>
      ) : null}
      {info && github ? (
        <section className="github-status" aria-label="Repository">
          <p>
            Linked to{' '}
            <a href={info.repositoryUrl ?? undefined} target="_blank" rel="noreferrer">
              {github.repository}
            </a>{' '}
            by {github.linkedBy.name}.
          </p>
          <p className={github.status === 'ok' ? '' : 'errors-text'}>
            {`Status: ${STATUS_TEXT[github.status]}`}
            {github.error && github.status !== 'ok' ? ` GitHub said: ${github.error}` : ''}
          </p>
          <LinkButtons
            lastSyncAt={github.lastSyncAt}
            canEdit={info.canEdit}
            canLink={info.canLink}
            busy={action.busy}
            unlink={unlink}
            onSync={() => action.run({ intent: 'sync' })}
          />
          {info.canLink && unlink.confirming ? (
            <UnlinkConfirmation
              question={unlinkQuestion(github.repository, info.pendingPushes)}
              busy={action.busy}
              onUnlink={() => {
                unlink.setConfirming(false)
                action.run({ intent: 'unlink' })
              }}
              onCancel={() => unlink.setConfirming(false)}
            />
          ) : null}
        </section>
      ) : null}
      {info && !github ? <p>This project is not linked to a GitHub repository.</p> : null}
      {secret ? (
        <WebhookSetup url={`${baseUrl}/v1/github/webhook/${bundle.project.id}`} secret={secret} />
      ) : null}
      {info?.canLink ? (
        <LinkForm
          key={github?.repository ?? ''}
          linked={github?.repository ?? null}
          busy={action.busy}
          onLink={(repository, token) => action.run({ intent: 'link', repository, token })}
        />
      ) : null}
      {info && !info.canLink && !github ? (
        <p className="muted">Only an admin or owner can link a repository.</p>
      ) : null}
      {info && github && info.canEdit ? (
        <ImportForm busy={action.busy} onImport={(input) => action.run({ intent: 'import', ...input })} />
      ) : null}
      {info && github ? <SyncLog items={info.items} /> : null}
      <div className="row end">
        <button type="button" className="button" onClick={onClose}>
          Close
        </button>
      </div>
    </Modal>
  )
}

function WebhookSetup({ url, secret }: { url: string; secret: string }) {
  const id = useId()
  return (
    <section className="github-webhook" aria-label="Webhook">
      <p>
        Optional, for instant updates: in the repository’s Settings → Webhooks, add this payload URL (content
        type application/json, the Issues event) with this secret. It is shown only now.
      </p>
      <div className="field">
        <label htmlFor={`${id}-url`}>Payload URL</label>
        <div className="row nowrap">
          <input id={`${id}-url`} readOnly value={url} onFocus={(e) => e.currentTarget.select()} />
          <CopyButton text={url} label="Copy payload URL" />
        </div>
      </div>
      <div className="field">
        <label htmlFor={`${id}-secret`}>Secret</label>
        <div className="row nowrap">
          <input id={`${id}-secret`} readOnly value={secret} onFocus={(e) => e.currentTarget.select()} />
          <CopyButton text={secret} label="Copy secret" />
        </div>
      </div>
    </section>
  )
}

/** Asks before unlinking: what stops, and that waiting pushes are kept for the same repository. Focus goes to it. */
function UnlinkConfirmation({
  question,
  busy,
  onUnlink,
  onCancel,
}: {
  question: string
  busy: boolean
  onUnlink: () => void
  onCancel: () => void
}) {
  const yes = useRef<HTMLButtonElement>(null)
  useEffect(() => yes.current?.focus(), [])
  return (
    <div className="confirm" role="group" aria-label="Unlink the repository?">
      <p>{question}</p>
      <ActionAndCancel
        action="Yes, unlink"
        tone="danger"
        disabled={busy}
        onAction={onUnlink}
        onCancel={onCancel}
        actionRef={yes}
      />
    </div>
  )
}

/** Link, or relink (the linked repository filled in: a new token for it is the usual fix). */
function LinkForm({
  linked,
  busy,
  onLink,
}: {
  linked: string | null
  busy: boolean
  onLink: (repository: string, token: string) => void
}) {
  const relink = linked !== null
  const id = useId()
  const [repository, setRepository] = useState(linked ?? '')
  const [token, setToken] = useState('')
  const [error, setError] = useState<string | null>(null)
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (!REPOSITORY_PATTERN.test(repository.trim())) return setError('Enter the repository as owner/name.')
    if (token.trim() === '') return setError('Enter a fine-grained personal access token.')
    setError(null)
    onLink(repository.trim(), token.trim())
    setToken('')
  }
  return (
    <form className="github-link-form" onSubmit={submit} noValidate>
      <h3>{relink ? 'Relink' : 'Link a repository'}</h3>
      <p className="small muted">
        A fine-grained personal access token with Issues: read and write (and Metadata: read) on the
        repository.
      </p>
      <div className="field">
        <label htmlFor={`${id}-repo`}>Repository</label>
        <input
          id={`${id}-repo`}
          placeholder="owner/name"
          value={repository}
          onChange={(e) => setRepository(e.currentTarget.value)}
          autoComplete="off"
        />
      </div>
      <div className="field">
        <label htmlFor={`${id}-token`}>Token</label>
        <input
          id={`${id}-token`}
          type="password"
          value={token}
          onChange={(e) => setToken(e.currentTarget.value)}
          autoComplete="off"
        />
      </div>
      {error ? (
        <p className="errors-text" role="alert">
          {error}
        </p>
      ) : null}
      <button type="submit" className="button primary small" disabled={busy}>
        {relink ? 'Relink repository' : 'Link repository'}
      </button>
    </form>
  )
}

function SyncLog({ items }: { items: LogItem[] }) {
  if (items.length === 0) return <p className="muted small">Nothing synced yet.</p>
  return (
    <table className="github-log">
      <caption>Sync log</caption>
      <thead>
        <tr>
          <th scope="col">When</th>
          <th scope="col">Direction</th>
          <th scope="col">Issue</th>
          <th scope="col">What</th>
          <th scope="col">Result</th>
        </tr>
      </thead>
      <tbody>
        {items.map((item, i) => (
          <tr key={i}>
            <td>{when(item.at)}</td>
            <td>{item.direction}</td>
            <td>{item.issue ? `#${item.issue}` : ''}</td>
            <td>{item.action}</td>
            <td>{item.error ? `${item.status}: ${item.error}` : item.status}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}
