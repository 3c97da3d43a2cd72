import { useState, type FormEvent } from 'react'
import { z } from 'zod'
import { Modal } from '~/ui/modal'
import { TITLE_MAX } from '~/features/map/vocabulary'
import { newId } from '~/lib/uuid'
import { byRank } from '~/features/board/board-grid'
import type { ProjectBundle } from '~/features/map/bundle-types'
import { useBoard } from './board-context'
import { useUnsavedDraft } from './unsaved-drafts'

export type NewCardTarget =
  | { kind: 'workflow' }
  | { kind: 'milestone' }
  | { kind: 'subworkflow'; workflowId: string }
  | { kind: 'feature'; milestoneId: string; subWorkflowId: string }

/** SPEC §5: a new card's title is required ('Required.') and at most 200 characters. */
export const newCardTitleSchema = z
  .string()
  .trim()
  .min(1, 'Required.')
  .max(TITLE_MAX, `Maximum ${TITLE_MAX} characters.`)

type Props = {
  target: NewCardTarget
  /** The new card's id, once it is on the board. */
  onCreated: (id: string) => void
  onClose: () => void
}

/** What the modal makes, and where: `New goal`, `New release after MVP`, `New activity in Shop`, `New feature in MVP › Pay`. */
function newCardTitle(bundle: ProjectBundle, target: NewCardTarget): string {
  const titleOf = (cards: { id: string; title: string }[], id: string) =>
    cards.find((c) => c.id === id)?.title
  switch (target.kind) {
    case 'workflow':
      return 'New goal'
    case 'milestone': {
      const last = [...bundle.milestones].sort(byRank).at(-1)
      return last ? `New release after ${last.title}` : 'New release'
    }
    case 'subworkflow': {
      const goal = titleOf(bundle.workflows, target.workflowId)
      return goal ? `New activity in ${goal}` : 'New activity'
    }
    case 'feature': {
      const place = [
        titleOf(bundle.milestones, target.milestoneId),
        titleOf(bundle.subWorkflows, target.subWorkflowId),
      ]
      return place.every(Boolean) ? `New feature in ${place.join(' › ')}` : 'New feature'
    }
  }
}

/** The `New …` modal: the card appears at once with its client id; the server copy replaces it. */
export function NewCardModal({ target, onCreated, onClose }: Props) {
  const { dispatch, bundle } = useBoard()
  const [title, setTitle] = useState('')
  const [error, setError] = useState<string | null>(null)
  useUnsavedDraft(title, 'new card')

  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    const parsed = newCardTitleSchema.safeParse(title)
    if (!parsed.success) return setError(parsed.error.issues[0].message)
    const id = newId()
    const projectId = bundle.project.id
    if (target.kind === 'workflow') dispatch({ type: 'workflow.create', id, projectId, title: parsed.data })
    else if (target.kind === 'milestone')
      dispatch({ type: 'milestone.create', id, projectId, title: parsed.data })
    else if (target.kind === 'subworkflow')
      dispatch({ type: 'subworkflow.create', id, workflowId: target.workflowId, title: parsed.data })
    else
      dispatch({
        type: 'feature.create',
        id,
        milestoneId: target.milestoneId,
        subWorkflowId: target.subWorkflowId,
        title: parsed.data,
      })
    onCreated(id)
    onClose()
  }

  return (
    <Modal title={newCardTitle(bundle, target)} onClose={onClose}>
      <form onSubmit={onSubmit} noValidate>
        <div className="field">
          <label htmlFor="new-card-title">Title</label>
          <input
            id="new-card-title"
            name="title"
            autoFocus
            value={title}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'new-card-title-error' : undefined}
            onChange={(e) => {
              setTitle(e.target.value)
              if (error) setError(null)
            }}
          />
          {error ? (
            <div id="new-card-title-error" className="errors" role="alert">
              <p>{error}</p>
            </div>
          ) : null}
        </div>
        <div className="row end">
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button primary">
            Create
          </button>
        </div>
      </form>
    </Modal>
  )
}
