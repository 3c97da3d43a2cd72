import { useNavigate } from 'react-router'
import { useEffect, useId, useRef, useState, type FormEvent } from 'react'
import { DRAFT_DESCRIPTION_MAX, type MapFile } from '~/features/assistant'
import { newId } from '~/lib/uuid'
import { createFromDraft } from './assistant-client'
import { previewCounts, previewOfMap, previewOfPartial, type DraftPreview } from './draft-preview'
import { streamDraft } from './draft-stream'

type Phase =
  | { kind: 'typing' }
  | { kind: 'streaming'; retried: boolean }
  | { kind: 'done'; map: MapFile }
  | { kind: 'creating'; map: MapFile }

/**
 * `Draft a map` in the New project dialog (CONTRACT §16): a product description, then the draft
 * as it streams in (goals, activities, releases, features); `Create` makes the project from the
 * finished map as one change its member can undo and opens its board, `Discard` drops it.
 */
export function DraftMapPanel({
  workspaceId,
  workspaceName,
  onBack,
}: {
  workspaceId: string
  workspaceName: string
  /** Back to the New project form, the draft dropped. */
  onBack: () => void
}) {
  const navigate = useNavigate()
  const ids = { description: useId(), status: useId(), preview: useId() }
  const [description, setDescription] = useState('')
  const [phase, setPhase] = useState<Phase>({ kind: 'typing' })
  const [preview, setPreview] = useState<DraftPreview | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [fieldError, setFieldError] = useState<string | null>(null)
  const drafting = useRef<AbortController | null>(null)
  const createButton = useRef<HTMLButtonElement>(null)
  useEffect(() => () => drafting.current?.abort(), [])
  useEffect(() => {
    if (phase.kind === 'done') createButton.current?.focus()
  }, [phase.kind])

  const draft = async (event: FormEvent) => {
    event.preventDefault()
    const text = description.trim()
    if (!text) return setFieldError('Required.')
    if (text.length > DRAFT_DESCRIPTION_MAX)
      return setFieldError(`Maximum ${DRAFT_DESCRIPTION_MAX} characters.`)
    drafting.current?.abort()
    const controller = (drafting.current = new AbortController())
    setError(null)
    setPreview(null)
    setPhase({ kind: 'streaming', retried: false })
    await streamDraft(workspaceId, text, controller.signal, (line) => {
      if (controller.signal.aborted) return
      if (line.type === 'partial') setPreview(previewOfPartial(line.draft))
      else if (line.type === 'retry') {
        setPreview(null)
        setPhase({ kind: 'streaming', retried: true })
      } else if (line.type === 'done') {
        setPreview(previewOfMap(line.map))
        setPhase({ kind: 'done', map: line.map })
      } else {
        setPreview(null)
        setError(line.error.message)
        setPhase({ kind: 'typing' })
      }
    })
  }

  const create = async (map: MapFile) => {
    setPhase({ kind: 'creating', map })
    setError(null)
    const answer = await createFromDraft(
      { id: workspaceId, name: workspaceName },
      { id: newId(), title: map.project.title, map },
    )
    // The board's first card takes the focus (`#board`), as for a project made from a template.
    if (answer.ok) return navigate(`/${workspaceName}/projects/${answer.data.projectId}#board`)
    setError(answer.message)
    setPhase({ kind: 'done', map })
  }

  const discard = () => {
    drafting.current?.abort()
    onBack()
  }

  const streaming = phase.kind === 'streaming'
  const status =
    phase.kind === 'streaming'
      ? phase.retried
        ? 'The first answer could not be used; the assistant is trying again…'
        : 'Drafting the map…'
      : phase.kind === 'done' && preview
        ? `The draft is ready: ${previewCounts(preview)}.`
        : phase.kind === 'creating'
          ? 'Creating the project…'
          : ''
  return (
    <div className="draft-map-panel">
      <h3>Draft a map</h3>
      <form onSubmit={draft} noValidate>
        <div className="field">
          <label htmlFor={ids.description}>Product description</label>
          <textarea
            id={ids.description}
            autoFocus
            rows={4}
            maxLength={DRAFT_DESCRIPTION_MAX}
            value={description}
            readOnly={phase.kind !== 'typing'}
            aria-invalid={fieldError ? true : undefined}
            aria-describedby={`${ids.description}-hint${fieldError ? ` ${ids.description}-error` : ''}`}
            onChange={(e) => {
              setDescription(e.target.value)
              setFieldError(null)
            }}
          />
          <div id={`${ids.description}-hint`} className="hint">
            {`What the product is and who it is for, up to ${DRAFT_DESCRIPTION_MAX.toLocaleString('en')} characters. It goes to the assistant's model; nothing is written until you press Create.`}
          </div>
          {fieldError ? (
            <div id={`${ids.description}-error`} className="errors" role="alert">
              <p>{fieldError}</p>
            </div>
          ) : null}
        </div>
        {phase.kind === 'typing' ? (
          <div className="row end">
            <button type="button" className="button" onClick={onBack}>
              Cancel
            </button>
            <button type="submit" className="button primary">
              Draft
            </button>
          </div>
        ) : null}
      </form>
      <p id={ids.status} role="status" className="draft-status">
        {status}
      </p>
      {error ? (
        <div className="errors" role="alert">
          <p>{error}</p>
        </div>
      ) : null}
      {preview ? (
        <section className="draft-preview" tabIndex={0} aria-labelledby={ids.preview} aria-busy={streaming}>
          <h4 id={ids.preview}>{preview.title || 'Draft preview'}</h4>
          <PreviewTree preview={preview} />
        </section>
      ) : null}
      {phase.kind !== 'typing' ? (
        <div className="row end">
          <button type="button" className="button" onClick={discard}>
            Discard
          </button>
          <button
            ref={createButton}
            type="button"
            className="button primary"
            disabled={phase.kind !== 'done'}
            onClick={() => phase.kind === 'done' && void create(phase.map)}
          >
            Create
          </button>
        </div>
      ) : null}
    </div>
  )
}

/** Goals › activities › features (with their release), and the releases in order. Text only. */
function PreviewTree({ preview }: { preview: DraftPreview }) {
  return (
    <>
      {preview.releases.length > 0 ? (
        <p className="small">
          <strong>Releases: </strong>
          {preview.releases.filter(Boolean).join(' · ')}
        </p>
      ) : null}
      <ul className="draft-goals">
        {preview.goals.map((goal, g) => (
          <li key={g}>
            <span className="draft-goal">{goal.title}</span>
            <ul className="draft-activities">
              {goal.activities.map((activity, a) => (
                <li key={a}>
                  <span className="draft-activity">{activity.title}</span>
                  <ul className="draft-features">
                    {activity.features.map((feature, f) => (
                      <li key={f}>
                        {feature.title}
                        {preview.releases[feature.release] ? (
                          <span className="muted small">{` · ${preview.releases[feature.release]}`}</span>
                        ) : null}
                      </li>
                    ))}
                  </ul>
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </>
  )
}
