import { useEffect, useId, useRef, useState, type FormEvent } from 'react'
import { useBoard } from '~/features/board/ui'
import { ActionAndCancel } from '~/ui/action-and-cancel'

/**
 * Parts of the Tracker dialog (CONTRACT §14): `Import issues` into a cell of the board, and the
 * question Unlink asks before it unlinks.
 */

export type ImportInput = {
  milestoneId: string
  subWorkflowId: string
  labels?: string[]
  state: 'open' | 'all'
}

export function ImportForm({ busy, onImport }: { busy: boolean; onImport: (input: ImportInput) => void }) {
  const { bundle } = useBoard()
  const id = useId()
  const [milestoneId, setMilestoneId] = useState(bundle.milestones[0]?.id ?? '')
  const [subWorkflowId, setSubWorkflowId] = useState(bundle.subWorkflows[0]?.id ?? '')
  const [labels, setLabels] = useState('')
  const [state, setState] = useState<'open' | 'all'>('open')
  if (bundle.milestones.length === 0 || bundle.subWorkflows.length === 0)
    return <p className="muted small">Add a release and an activity to import issues into.</p>
  const submit = (event: FormEvent) => {
    event.preventDefault()
    const names = labels
      .split(',')
      .map((l) => l.trim())
      .filter(Boolean)
    onImport({ milestoneId, subWorkflowId, state, ...(names.length > 0 ? { labels: names } : {}) })
  }
  return (
    <form className="github-import-form" onSubmit={submit} noValidate aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Import issues</h3>
      <div className="field">
        <label htmlFor={`${id}-release`}>Release</label>
        <select
          id={`${id}-release`}
          value={milestoneId}
          onChange={(e) => setMilestoneId(e.currentTarget.value)}
        >
          {bundle.milestones.map((m) => (
            <option key={m.id} value={m.id}>
              {m.title}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-activity`}>Activity</label>
        <select
          id={`${id}-activity`}
          value={subWorkflowId}
          onChange={(e) => setSubWorkflowId(e.currentTarget.value)}
        >
          {bundle.subWorkflows.map((s) => (
            <option key={s.id} value={s.id}>
              {s.title}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-labels`}>Labels (comma-separated, optional)</label>
        <input id={`${id}-labels`} value={labels} onChange={(e) => setLabels(e.currentTarget.value)} />
      </div>
      <fieldset className="field">
        <legend>State</legend>
        {(['open', 'all'] as const).map((value) => (
          <label key={value}>
            <input
              type="radio"
              name={`${id}-state`}
              value={value}
              checked={state === value}
              onChange={() => setState(value)}
            />{' '}
            {value === 'open' ? 'Open' : 'All'}
          </label>
        ))}
      </fieldset>
      <button type="submit" className="button small" disabled={busy}>
        Import issues
      </button>
    </form>
  )
}

/** Asks before unlinking; `Unlink` takes the focus first, Escape or `Cancel` keeps the link. */
export function UnlinkConfirmation({
  tracker,
  busy,
  onUnlink,
  onCancel,
}: {
  tracker: string
  busy: boolean
  onUnlink: () => void
  onCancel: () => void
}) {
  const id = useId()
  const yes = useRef<HTMLButtonElement>(null)
  useEffect(() => yes.current?.focus(), [])
  return (
    <div
      className="confirm"
      role="alertdialog"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-text`}
      onKeyDown={(e) => {
        if (e.key !== 'Escape') return
        // Escape closes this question, not the whole Tracker dialog.
        e.stopPropagation()
        onCancel()
      }}
    >
      <p id={`${id}-title`}>
        <strong>{`Unlink ${tracker}?`}</strong>
      </p>
      <p id={`${id}-text`}>Sync stops and the token is deleted. The features keep their issue links.</p>
      <ActionAndCancel
        action="Unlink"
        tone="danger"
        disabled={busy}
        onAction={onUnlink}
        onCancel={onCancel}
        actionRef={yes}
      />
    </div>
  )
}
