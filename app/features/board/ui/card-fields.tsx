import { useEffect, useId, useRef, useState } from 'react'
import Markdown, { type Components } from 'react-markdown'
import {
  ANNOTATION_LABELS,
  ANNOTATIONS,
  annotationList,
  COLORS,
  DESCRIPTION_MAX,
  estimateSchema,
  TITLE_MAX,
  type Color,
} from '~/features/board/board-commands'
import { COLOR_SWATCHES } from '~/features/map/colors'
import { AnnotationIcon } from './annotation-icon'
import { useUnsavedDraft } from './unsaved-drafts'

/** Inline-editable title: click or Enter to edit, Enter or leaving the field saves, Escape cancels. */
export function InlineTitle({
  value,
  editable,
  onSave,
  headingId,
}: {
  value: string
  editable: boolean
  onSave: (title: string) => void
  headingId: string
}) {
  const [editing, setEditing] = useState(false)
  const [draft, setDraft] = useState(value)
  const [error, setError] = useState<string | null>(null)
  useUnsavedDraft(editing && draft.trim() !== value && draft, 'title')
  // Someone else's rename shows at once, but never replaces what is being typed.
  useEffect(() => {
    if (!editing) setDraft(value)
  }, [value, editing])
  // Enter or Escape ends the editing from the keyboard: the focus goes back to the title (not the page).
  const titleButton = useRef<HTMLButtonElement>(null)
  const refocus = useRef(false)
  useEffect(() => {
    if (editing || !refocus.current) return
    refocus.current = false
    titleButton.current?.focus()
  }, [editing])
  if (!editing || !editable) {
    return (
      <h2 id={headingId} className="dialog-title">
        {editable ? (
          <button
            ref={titleButton}
            type="button"
            className="title-button"
            onClick={() => setEditing(true)}
            aria-label={`${value}. Edit title`}
          >
            {value}
          </button>
        ) : (
          value
        )}
      </h2>
    )
  }
  /** True when the title was saved (and the editing ended). */
  const save = () => {
    const title = draft.trim()
    if (!title) return void setError('Title required.')
    if (title.length > TITLE_MAX) return void setError(`Maximum ${TITLE_MAX} characters.`)
    setEditing(false)
    setError(null)
    if (title !== value) onSave(title)
    return true
  }
  return (
    <div className="field">
      <input
        id={headingId}
        aria-label="Title"
        className="title-input"
        autoFocus
        value={draft}
        onChange={(e) => setDraft(e.target.value)}
        onBlur={save}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault()
            // Set first: the save renders the title at once (its command is flushed synchronously).
            refocus.current = true
            if (!save()) refocus.current = false
          } else if (e.key === 'Escape') {
            e.stopPropagation()
            e.nativeEvent.stopImmediatePropagation()
            refocus.current = true
            setDraft(value)
            setError(null)
            setEditing(false)
          }
        }}
      />
      {error ? (
        <div className="errors" role="alert">
          <p>{error}</p>
        </div>
      ) : null}
    </div>
  )
}

/**
 * A description's headings rank below the card's title (the dialog's h2): `#` is an h3, and so
 * on down to h6.
 */
const MARKDOWN_HEADINGS: Components = {
  h1: ({ node: _node, ...props }) => <h3 {...props} />,
  h2: ({ node: _node, ...props }) => <h4 {...props} />,
  h3: ({ node: _node, ...props }) => <h5 {...props} />,
  h4: ({ node: _node, ...props }) => <h6 {...props} />,
  h5: ({ node: _node, ...props }) => <h6 {...props} />,
}

/**
 * Markdown description, rendered safely (react-markdown never renders raw HTML). `typedBefore`:
 * text typed before the card was deleted and restored; the editor opens with it, unsaved.
 */
export function DescriptionEditor({
  value,
  typedBefore,
  editable,
  onSave,
}: {
  value: string
  typedBefore?: string
  editable: boolean
  onSave: (description: string) => void
}) {
  const [editing, setEditing] = useState(typedBefore !== undefined)
  const [draft, setDraft] = useState(typedBefore ?? value)
  const id = useId()
  const tooLong = draft.length > DESCRIPTION_MAX
  useUnsavedDraft(editing && draft !== value && draft, 'description')
  if (editing && editable) {
    return (
      <div className="field">
        <label htmlFor={id}>Description</label>
        <textarea
          id={id}
          className="description-input"
          rows={8}
          autoFocus
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
        />
        {tooLong ? (
          <div className="errors" role="alert">
            <p>{`Maximum ${DESCRIPTION_MAX} characters.`}</p>
          </div>
        ) : null}
        <div className="row">
          <button
            type="button"
            className="button primary small"
            disabled={tooLong}
            onClick={() => {
              setEditing(false)
              if (draft !== value) onSave(draft)
            }}
          >
            Save
          </button>
          <button type="button" className="button small" onClick={() => (setDraft(value), setEditing(false))}>
            Cancel
          </button>
        </div>
      </div>
    )
  }
  return (
    <div className="description">
      {value ? (
        <div className="markdown">
          <Markdown components={MARKDOWN_HEADINGS}>{value}</Markdown>
        </div>
      ) : (
        <p className="muted">{editable ? 'No description yet.' : 'No description.'}</p>
      )}
      {editable ? (
        <button type="button" className="button small" onClick={() => (setDraft(value), setEditing(true))}>
          Edit description
        </button>
      ) : null}
    </div>
  )
}

/**
 * The card's colour: one radio group (a single Tab stop; the arrow keys choose), each swatch a
 * radio button named by its colour.
 */
export function ColorPicker({ value, onChange }: { value: string; onChange: (color: Color | '') => void }) {
  const name = useId()
  const swatch = (color: Color | '', label: string) => (
    <input
      key={color || 'none'}
      type="radio"
      name={name}
      className={`swatch ${color ? '' : 'none'}`}
      style={color ? { background: COLOR_SWATCHES[color].fill } : undefined}
      aria-label={label}
      checked={value === color}
      onChange={() => onChange(color)}
    />
  )
  return (
    <fieldset className="color-picker">
      <legend>Color</legend>
      {swatch('', 'No color')}
      {COLORS.map((c) => swatch(c, COLOR_SWATCHES[c].label))}
    </fieldset>
  )
}

export function AnnotationPicker({
  value,
  editable,
  onChange,
}: {
  value: string
  editable: boolean
  onChange: (annotations: string) => void
}) {
  // Held locally so a tick shows at once: the board's optimistic copy arrives in a React
  // transition, and a controlled checkbox would otherwise flip back until it lands.
  const [selected, setSelected] = useState(() => annotationList(value))
  useEffect(() => setSelected(annotationList(value)), [value])
  if (!editable) {
    return selected.length ? (
      <ul className="annotation-list" aria-label="Annotations">
        {selected.map((a) => (
          <li key={a} className="annotation-chip">
            <AnnotationIcon name={a} /> {ANNOTATION_LABELS[a]}
          </li>
        ))}
      </ul>
    ) : null
  }
  const toggle = (name: (typeof ANNOTATIONS)[number]) => {
    const toggled = selected.includes(name) ? selected.filter((a) => a !== name) : [...selected, name]
    const next = ANNOTATIONS.filter((a) => toggled.includes(a))
    setSelected(next)
    onChange(next.join(','))
  }
  return (
    <details className="annotation-menu">
      <summary>
        Annotations{selected.length ? `: ${selected.map((a) => ANNOTATION_LABELS[a]).join(', ')}` : ''}
      </summary>
      <div className="annotation-options">
        {ANNOTATIONS.map((a) => (
          <label key={a} className="check">
            <input type="checkbox" checked={selected.includes(a)} onChange={() => toggle(a)} />
            <AnnotationIcon name={a} /> {ANNOTATION_LABELS[a]}
          </label>
        ))}
      </div>
    </details>
  )
}

/**
 * SPEC §5: an integer 0–999, saved on Enter and on losing focus; empty is stored as 0. Enter
 * saves at once, so Escape right after it (which closes the dialog) keeps the size.
 */
export function SizeField({
  value,
  editable,
  onSave,
}: {
  value: number
  editable: boolean
  onSave: (estimate: number) => void
}) {
  const [draft, setDraft] = useState(String(value))
  const [error, setError] = useState<string | null>(null)
  const id = useId()
  const [focused, setFocused] = useState(false)
  // The size last saved from here: the board's copy may not show it yet when the field then
  // loses focus, and saving it twice would make two undo steps.
  const saved = useRef(value)
  useEffect(() => {
    saved.current = value
    if (!focused) setDraft(String(value))
  }, [value, focused])
  const submit = () => {
    const text = draft.trim()
    const number = text === '' ? 0 : /^-?\d+$/.test(text) ? Number(text) : Number.NaN
    const parsed = estimateSchema.safeParse(Number.isNaN(number) ? 0.5 : number)
    if (!parsed.success) return setError(parsed.error.issues[0].message)
    setError(null)
    if (parsed.data !== saved.current) {
      saved.current = parsed.data
      onSave(parsed.data)
    }
    setDraft(String(parsed.data))
  }
  return (
    <div className="field size-field">
      <label htmlFor={id}>Size</label>
      <input
        id={id}
        inputMode="numeric"
        value={draft}
        disabled={!editable}
        onChange={(e) => setDraft(e.target.value)}
        onFocus={() => setFocused(true)}
        onBlur={() => (setFocused(false), submit())}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault()
            submit()
          }
        }}
        aria-invalid={error ? true : undefined}
      />
      {error ? (
        <div className="errors" role="alert">
          <p>{error}</p>
        </div>
      ) : null}
    </div>
  )
}
