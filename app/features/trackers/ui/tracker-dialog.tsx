import { useId, useState, type FormEvent } from 'react'
import { Modal } from '~/ui/modal'
import { CopyButton } from '~/ui/copy-button'
import type { TrackerLink } from '~/features/map/bundle-types'
import { useBoard } from '~/features/board/ui'
import { PROVIDER_LABEL, type TrackerProviderName } from '../tracker-words'
import { useTrackerAction } from './use-tracker'
import { ImportForm, UnlinkConfirmation } from './tracker-forms'
import { LinkButtons, useDialogData, useUnlinkQuestion } from './tracker-parts'

/**
 * The board's `⋯` → `Tracker` (CONTRACT §14): pick GitHub, GitLab or Jira Cloud and give what it
 * needs (with a line on how to make the token), then the link's status, token expiry, `Sync now`,
 * `Import issues`, the log, relink and unlink (asked first). What a member may do follows their level.
 */
type LogItem = {
  at: string
  direction: string
  issue: string | number | null
  action: string
  status: string
  error: string | null
}
type DialogData = { tracker: TrackerLink | null; items: LogItem[]; canLink: boolean; canEdit: boolean }

export const TOKEN_HOW_TO: Record<TrackerProviderName, string> = {
  github: 'Make a fine-grained personal access token with Issues: read and write on the repository.',
  gitlab:
    'Make a personal, group or project access token with the api scope (Reporter or above) under Settings → Access tokens.',
  jira: 'Make an API token at id.atlassian.com → Security → API tokens, and give the e-mail of that Atlassian account.',
}

const STATUS: Record<TrackerLink['status'], string> = {
  ok: 'syncing.',
  token_invalid: 'stopped: the token was refused.',
  project_missing: 'the project is missing.',
  rate_limited: 'waiting for the rate limit.',
  unreachable: 'unreachable, retrying.',
  token_expiring: 'syncing; the token expires soon.',
}

const when = (iso: string) => new Date(iso).toLocaleString()

export function TrackerDialog({ onClose }: { onClose: () => void }) {
  const { basePath, baseUrl, bundle } = useBoard()
  const action = useTrackerAction('tracker-dialog')
  // Cancel gives the focus back to Unlink.
  const unlink = useUnlinkQuestion()
  const { result } = action
  const { info, secret } = useDialogData<DialogData>(`${basePath}/tracker`, result)
  const tracker = info?.tracker ?? null
  return (
    <Modal title="Tracker" onClose={onClose} className="github-dialog">
      {!info ? <p className="muted">Loading…</p> : null}
      {result ? (
        <p className={result.ok ? 'success-text' : 'errors-text'} role={result.ok ? 'status' : 'alert'}>
          {result.message}
        </p>
      ) : null}
      {info && tracker ? (
        <section aria-label="Link">
          <p>
            Linked to {PROVIDER_LABEL[tracker.provider]} {tracker.project} by {tracker.linkedBy.name}.
          </p>
          <p className={tracker.status === 'ok' ? '' : 'errors-text'}>
            {`Status: ${STATUS[tracker.status]}`}
            {tracker.error && tracker.status !== 'ok'
              ? ` ${PROVIDER_LABEL[tracker.provider]} said: ${tracker.error}`
              : ''}
          </p>
          {tracker.tokenExpiresAt ? (
            <p className="small">{`The token expires on ${tracker.tokenExpiresAt.slice(0, 10)}.`}</p>
          ) : null}
          <LinkButtons
            lastSyncAt={tracker.lastSyncAt}
            canEdit={info.canEdit}
            canLink={info.canLink}
            busy={action.busy}
            unlink={unlink}
            onSync={() => action.run({ intent: 'sync' })}
          />
          {info.canLink && unlink.confirming ? (
            <UnlinkConfirmation
              tracker={`${PROVIDER_LABEL[tracker.provider]} ${tracker.project}`}
              busy={action.busy}
              onUnlink={() => {
                unlink.answered()
                action.run({ intent: 'unlink' })
              }}
              onCancel={() => unlink.setConfirming(false)}
            />
          ) : null}
        </section>
      ) : null}
      {info && tracker && info.canEdit ? (
        <ImportForm busy={action.busy} onImport={(cell) => action.run({ intent: 'import', ...cell })} />
      ) : null}
      {info && !tracker ? <p>This project is not linked to a tracker.</p> : null}
      {secret ? (
        <section aria-label="Webhook">
          <p>
            For changes at once, add a webhook on the tracker: URL{' '}
            <code>{`${baseUrl}/v1/tracker/webhook/${bundle.project.id}`}</code>, secret <code>{secret}</code>{' '}
            <CopyButton text={secret} label="Copy secret" />. It is shown only now.
          </p>
        </section>
      ) : null}
      {info?.canLink ? (
        <LinkForm
          relink={!!tracker}
          busy={action.busy}
          onLink={(link) => action.run({ intent: 'link', link })}
        />
      ) : null}
      {info && info.items.length > 0 ? (
        <section aria-label="Sync log">
          <h3>Log</h3>
          <ul className="small">
            {info.items.map((item, i) => (
              <li key={i}>
                {`${when(item.at)} · ${item.direction} · ${item.issue ?? ''} ${item.action} · ${item.status}`}
                {item.error ? ` · ${item.error}` : ''}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <div className="row end">
        <button type="button" className="button" onClick={onClose}>
          Close
        </button>
      </div>
    </Modal>
  )
}

function LinkForm({
  relink,
  busy,
  onLink,
}: {
  relink: boolean
  busy: boolean
  onLink: (link: Record<string, string>) => void
}) {
  const id = useId()
  const [provider, setProvider] = useState<TrackerProviderName>('gitlab')
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    const form = new FormData(event.currentTarget)
    const link: Record<string, string> = { provider }
    for (const [key, value] of form.entries()) if (key !== 'provider') link[key] = String(value)
    onLink(link)
  }
  const field = (name: string, label: string, type = 'text') => (
    <p>
      <label htmlFor={`${id}-${name}`}>{label}</label>
      <input id={`${id}-${name}`} name={name} type={type} required autoComplete="off" />
    </p>
  )
  return (
    <form onSubmit={submit} aria-label={relink ? 'Relink' : 'Link'}>
      <h3>{relink ? 'Relink' : 'Link a tracker'}</h3>
      <p>
        <label htmlFor={`${id}-provider`}>Tracker</label>
        <select
          id={`${id}-provider`}
          name="provider"
          value={provider}
          onChange={(e) => setProvider(e.target.value as TrackerProviderName)}
        >
          <option value="gitlab">GitLab</option>
          <option value="jira">Jira Cloud</option>
          <option value="github">GitHub</option>
        </select>
      </p>
      {provider === 'github' ? field('repository', 'Repository (owner/name)') : null}
      {provider !== 'github'
        ? field('url', provider === 'gitlab' ? 'GitLab address' : 'Jira site', 'url')
        : null}
      {provider !== 'github'
        ? field('project', provider === 'gitlab' ? 'Project (group/name)' : 'Project key')
        : null}
      {provider === 'jira' ? field('email', 'E-mail', 'email') : null}
      {field('token', 'Token', 'password')}
      <p className="small muted">{TOKEN_HOW_TO[provider]}</p>
      <button type="submit" className="button" disabled={busy}>
        {relink ? 'Relink' : 'Link'}
      </button>
    </form>
  )
}
