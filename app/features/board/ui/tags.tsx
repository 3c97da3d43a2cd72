import { useId, useState, type FormEvent } from 'react'
import { Modal } from '~/ui/modal'
import { COLORS, TAG_NAME_MAX, tagNameProblem } from '~/features/map/vocabulary'
import type { Tag } from '~/features/map/bundle-types'
import { COLOR_SWATCHES, colorFill } from '~/features/map/colors'
import { newId } from '~/lib/uuid'

type TagColor = (typeof COLORS)[number]
import { useBoard } from './board-context'

/**
 * Tags (CONTRACT §12): the labels a feature tile shows, the picker in the feature dialog and the
 * project's tag list (board menu). Every change is a board command, so it is optimistic, live,
 * in the activity and undoable like the rest of the board.
 */

/** A feature's tags as one string, so the memoised tile re-renders only when they change. */
export function tagLabelsKey(
  tagIds: readonly string[] | undefined,
  tagsById: ReadonlyMap<string, Tag>,
): string {
  return (tagIds ?? [])
    .flatMap((id) => {
      const tag = tagsById.get(id)
      return tag ? [`${tag.color}\u0001${tag.name}`] : []
    })
    .join('\u0002')
}

/** The labels on a tile (at most two lines of them; the rest is cut off, all are in the tile's description). */
export function TagLabels({ labels }: { labels: string }) {
  if (!labels) return null
  return (
    <span className="card-tags" aria-hidden="true">
      {labels.split('\u0002').map((label) => {
        const [color, name] = label.split('\u0001')
        return (
          <span key={name} className="tag-label">
            <span className="tag-dot" style={{ background: colorFill(color) ?? undefined }} />
            {name}
          </span>
        )
      })}
    </span>
  )
}

export const tagNamesOf = (labels: string) =>
  labels ? labels.split('\u0002').map((l) => l.split('\u0001')[1]) : []

function nameError(name: string, tags: readonly Tag[], exceptId?: string): string | null {
  const problem = tagNameProblem(name)
  if (problem) return problem
  const trimmed = name.trim()
  if (tags.some((t) => t.id !== exceptId && t.name.toLowerCase() === trimmed.toLowerCase()))
    return `There is a tag '${trimmed}' already.`
  return null
}

/** The feature dialog's tags: a checkbox per project tag, and a new tag made and put on at once. */
export function TagPicker({
  featureId,
  tagIds,
  editable,
}: {
  featureId: string
  tagIds: readonly string[]
  editable: boolean
}) {
  const { bundle, dispatch } = useBoard()
  const tags = bundle.tags ?? []
  const id = useId()
  const [name, setName] = useState('')
  const [error, setError] = useState<string | null>(null)
  const on = new Set(tagIds)
  const set = (next: string[]) => dispatch({ type: 'feature.tags', id: featureId, tagIds: next })
  const add = (event: FormEvent) => {
    event.preventDefault()
    const problem = nameError(name, tags)
    if (problem) return setError(problem)
    const tagId = newId()
    dispatch({
      type: 'tag.create',
      id: tagId,
      projectId: bundle.project.id,
      name: name.trim(),
      color: 'BLUE',
    })
    set([...tagIds, tagId])
    setName('')
    setError(null)
  }
  if (!editable) {
    const names = tags.filter((t) => on.has(t.id)).map((t) => t.name)
    return names.length > 0 ? <p className="tag-line">{`Tags: ${names.join(', ')}`}</p> : null
  }
  return (
    <fieldset className="tag-picker">
      <legend>Tags</legend>
      {tags.length > 0 ? (
        <div className="tag-options">
          {tags.map((tag) => (
            <label key={tag.id} className="check">
              <input
                type="checkbox"
                checked={on.has(tag.id)}
                onChange={(e) =>
                  set(e.currentTarget.checked ? [...tagIds, tag.id] : tagIds.filter((t) => t !== tag.id))
                }
              />
              <span
                className="tag-dot"
                style={{ background: colorFill(tag.color) ?? undefined }}
                aria-hidden="true"
              />
              {tag.name}
            </label>
          ))}
        </div>
      ) : null}
      <form className="row nowrap tag-new" onSubmit={add} noValidate>
        <label htmlFor={`${id}-new`} className="sr-only">
          New tag
        </label>
        <input
          id={`${id}-new`}
          className="text"
          value={name}
          maxLength={TAG_NAME_MAX + 10}
          placeholder="New tag"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(e) => setName(e.currentTarget.value)}
        />
        <button type="submit" className="button small">
          Add tag
        </button>
      </form>
      {error ? (
        <p id={`${id}-error`} className="errors-text" role="alert">
          {error}
        </p>
      ) : null}
    </fieldset>
  )
}

/** The project's tag list (board menu → Tags): rename, recolour, delete, and add. */
export function TagsDialog({ onClose }: { onClose: () => void }) {
  const { bundle, dispatch, readOnly } = useBoard()
  const tags = bundle.tags ?? []
  const id = useId()
  const [name, setName] = useState('')
  const [color, setColor] = useState<string>('BLUE')
  const [error, setError] = useState<string | null>(null)
  const used = (tagId: string) => bundle.features.filter((f) => f.tagIds?.includes(tagId)).length
  const add = (event: FormEvent) => {
    event.preventDefault()
    const problem = nameError(name, tags)
    if (problem) return setError(problem)
    dispatch({
      type: 'tag.create',
      id: newId(),
      projectId: bundle.project.id,
      name: name.trim(),
      color: color as TagColor,
    })
    setName('')
    setError(null)
  }
  return (
    <Modal title="Tags" onClose={onClose} className="tags-dialog">
      {tags.length === 0 ? <p className="muted">No tags yet.</p> : null}
      <ul className="plain tag-list">
        {tags.map((tag) => (
          <TagRow key={tag.id} tag={tag} tags={tags} uses={used(tag.id)} readOnly={readOnly} />
        ))}
      </ul>
      {!readOnly ? (
        <form className="tag-add" onSubmit={add} noValidate>
          <div className="row nowrap">
            <label htmlFor={`${id}-name`} className="sr-only">
              Tag name
            </label>
            <input
              id={`${id}-name`}
              className="text"
              placeholder="Tag name"
              value={name}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${id}-error` : undefined}
              onChange={(e) => setName(e.currentTarget.value)}
            />
            <ColorSelect id={`${id}-color`} value={color} onChange={setColor} />
            <button type="submit" className="button primary small">
              Add tag
            </button>
          </div>
          {error ? (
            <p id={`${id}-error`} className="errors-text" role="alert">
              {error}
            </p>
          ) : null}
        </form>
      ) : null}
      <div className="row end">
        <button type="button" className="button" onClick={onClose}>
          Close
        </button>
      </div>
    </Modal>
  )
}

function ColorSelect({
  id,
  value,
  onChange,
  label = 'Color',
}: {
  id: string
  value: string
  onChange: (color: string) => void
  label?: string
}) {
  return (
    <>
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <select id={id} className="text" value={value} onChange={(e) => onChange(e.currentTarget.value)}>
        {COLORS.map((c) => (
          <option key={c} value={c}>
            {COLOR_SWATCHES[c].label}
          </option>
        ))}
      </select>
    </>
  )
}

function TagRow({
  tag,
  tags,
  uses,
  readOnly,
}: {
  tag: Tag
  tags: readonly Tag[]
  uses: number
  readOnly: boolean
}) {
  const { dispatch } = useBoard()
  const id = useId()
  const [name, setName] = useState(tag.name)
  const [error, setError] = useState<string | null>(null)
  const [confirming, setConfirming] = useState(false)
  const rename = () => {
    if (name.trim() === tag.name) return setError(null)
    const problem = nameError(name, tags, tag.id)
    if (problem) return setError(problem)
    dispatch({ type: 'tag.rename', id: tag.id, name: name.trim() })
    setError(null)
  }
  const usage = uses === 1 ? '1 feature' : `${uses} features`
  if (readOnly)
    return (
      <li className="tag-row">
        <span
          className="tag-dot"
          style={{ background: colorFill(tag.color) ?? undefined }}
          aria-hidden="true"
        />{' '}
        {tag.name} <span className="muted small">{usage}</span>
      </li>
    )
  return (
    <li className="tag-row">
      <div className="row nowrap">
        <span
          className="tag-dot"
          style={{ background: colorFill(tag.color) ?? undefined }}
          aria-hidden="true"
        />
        <label htmlFor={`${id}-name`} className="sr-only">
          {`Name of tag ${tag.name}`}
        </label>
        <input
          id={`${id}-name`}
          className="text"
          value={name}
          aria-invalid={error ? true : undefined}
          onChange={(e) => setName(e.currentTarget.value)}
          onBlur={rename}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault()
              rename()
            }
          }}
        />
        <ColorSelect
          id={`${id}-color`}
          label={`Color of tag ${tag.name}`}
          value={tag.color}
          onChange={(color) => dispatch({ type: 'tag.color', id: tag.id, color: color as TagColor })}
        />
        <span className="muted small nowrap">{usage}</span>
        <button type="button" className="button small" onClick={() => setConfirming(true)}>
          {`Delete`}
          <span className="sr-only">{` tag ${tag.name}`}</span>
        </button>
      </div>
      {error ? (
        <p className="errors-text" role="alert">
          {error}
        </p>
      ) : null}
      {confirming ? (
        <div className="confirm" role="alert">
          <p>{`Delete tag '${tag.name}'? It comes off ${usage}.`}</p>
          <div className="row">
            <button
              type="button"
              className="button danger small"
              onClick={() => dispatch({ type: 'tag.delete', id: tag.id })}
            >
              Yes, delete
            </button>
            <button type="button" className="button small" onClick={() => setConfirming(false)}>
              Cancel
            </button>
          </div>
        </div>
      ) : null}
    </li>
  )
}
