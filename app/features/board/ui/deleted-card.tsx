import { useId, useState } from 'react'
import { Modal } from '~/ui/modal'
import { CopyButton } from '~/ui/copy-button'
import type { DeletedCard } from '~/features/board/ui/live/use-live-board'
import { boardOutbox } from './board-outbox'
import type { UnsavedDraft } from './unsaved-drafts'

const WHAT: Record<UnsavedDraft['field'], string> = {
  title: 'title',
  description: 'description',
  comment: 'comment',
  'new card': 'new card’s title',
}

type Props = {
  id: string
  deleted: DeletedCard
  /** What was typed in the dialog's controls, unsaved, when the card went. */
  typed: UnsavedDraft[]
  /** The page's command route, for the restore; null when the member may not restore (view only). */
  commandsUrl: string | null
  onClose: () => void
}

/**
 * A colleague deleted the card whose dialog is open (issue 43): who did, what this member had
 * typed and not saved (shown, selectable and copyable, never dropped), and a way to put the card
 * back from the Trash (CONTRACT §7), after which the dialog shows it again with the typed
 * description in its editor. The dialog's focus goes to the first of the texts (selected, ready
 * to copy), or to the restore when nothing was typed.
 */
export function DeletedCardDialog({ id, deleted, typed, commandsUrl, onClose }: Props) {
  const [outcome, setOutcome] = useState<{ busy: boolean; error: string | null }>({
    busy: false,
    error: null,
  })
  const restore = async () => {
    if (!boardOutbox || !commandsUrl) return
    setOutcome({ busy: true, error: null })
    const res = await boardOutbox.send(commandsUrl, { type: 'trash.restore', id: deleted.trashId })
    setOutcome({ busy: false, error: res.ok ? null : res.message || 'Something went wrong.' })
  }
  return (
    <Modal title="Card deleted" onClose={onClose}>
      <p>{`${deleted.name} deleted this card while you had it open.`}</p>
      {typed.length > 0 ? <p>What you had typed was not saved. It is here to copy:</p> : null}
      {typed.map((draft, i) => (
        <TypedText key={i} draft={draft} />
      ))}
      {outcome.error ? (
        <p className="errors-text" role="alert">
          {outcome.error}
        </p>
      ) : null}
      <div className="row">
        {commandsUrl ? (
          <button
            type="button"
            className="button primary"
            disabled={outcome.busy}
            onClick={() => void restore()}
          >
            Restore the card from Trash
          </button>
        ) : null}
        <button type="button" className="button" onClick={onClose}>
          Close
        </button>
      </div>
      {commandsUrl && deleted.trashId !== id ? (
        <p className="small muted">It went with the card above it, which comes back with it.</p>
      ) : null}
    </Modal>
  )
}

function TypedText({ draft }: { draft: UnsavedDraft }) {
  const id = useId()
  const what = WHAT[draft.field]
  return (
    <div className="field">
      <label htmlFor={id}>{`Your unsaved ${what}`}</label>
      <textarea
        id={id}
        readOnly
        rows={Math.min(8, draft.text.split('\n').length + 1)}
        value={draft.text}
        onFocus={(e) => e.currentTarget.select()}
      />
      <CopyButton text={draft.text} label={`Copy your unsaved ${what}`}>
        Copy
      </CopyButton>
    </div>
  )
}
