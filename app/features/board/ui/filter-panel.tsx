import { useEffect, useState } from 'react'
import { ANNOTATION_LABELS, ANNOTATIONS, COLORS } from '~/features/map/vocabulary'
import { parseSizeRange, type BoardFilter, type SizeRange } from '~/features/board/board-filter'
import type { Persona } from '~/features/map/bundle-types'
import { COLOR_SWATCHES, colorFill } from '~/features/map/colors'
import { useBoard } from './board-context'

type Props = {
  id: string
  filter: BoardFilter
  setFilter: (next: BoardFilter) => void
  personas: Persona[]
  onClose: () => void
}

const toggle = <T,>(list: readonly T[], value: T, on: boolean) =>
  on ? [...list, value] : list.filter((v) => v !== value)

/** The filter controls; each change applies at once (and goes into the URL). Escape closes the panel. */
export function FilterPanel({ id, filter, setFilter, personas, onClose }: Props) {
  const tags = useBoard().bundle.tags ?? []
  return (
    <div
      id={id}
      className="filter-panel"
      role="group"
      aria-label="Filters"
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.preventDefault()
          e.stopPropagation()
          onClose()
        }
      }}
    >
      <fieldset className="filter-colors">
        <legend>Color</legend>
        {COLORS.map((color) => (
          <label key={color} className="check">
            <input
              type="checkbox"
              checked={filter.colors.includes(color)}
              onChange={(e) =>
                setFilter({ ...filter, colors: toggle(filter.colors, color, e.target.checked) })
              }
            />
            <span
              className="swatch-dot"
              style={{ background: COLOR_SWATCHES[color].fill }}
              aria-hidden="true"
            />
            {COLOR_SWATCHES[color].label}
          </label>
        ))}
      </fieldset>
      <fieldset className="filter-annotations">
        <legend>Annotation</legend>
        {ANNOTATIONS.map((annotation) => (
          <label key={annotation} className="check">
            <input
              type="checkbox"
              checked={filter.annotations.includes(annotation)}
              onChange={(e) =>
                setFilter({
                  ...filter,
                  annotations: toggle(filter.annotations, annotation, e.target.checked),
                })
              }
            />
            {ANNOTATION_LABELS[annotation]}
          </label>
        ))}
      </fieldset>
      {tags.length > 0 ? (
        <fieldset className="filter-tags">
          <legend>Tag</legend>
          {tags.map((tag) => (
            <label key={tag.id} className="check">
              <input
                type="checkbox"
                checked={(filter.tags ?? []).includes(tag.id)}
                onChange={(e) =>
                  setFilter({ ...filter, tags: toggle(filter.tags ?? [], tag.id, e.target.checked) })
                }
              />
              <span className="swatch-dot" style={{ background: colorFill(tag.color) }} aria-hidden="true" />
              {tag.name}
            </label>
          ))}
        </fieldset>
      ) : null}
      <div className="filter-column">
        <fieldset>
          <legend>Status</legend>
          {(
            [
              [null, 'Any status'],
              ['open', 'Open'],
              ['closed', 'Closed'],
            ] as const
          ).map(([value, label]) => (
            <label key={label} className="check">
              <input
                type="radio"
                name={`${id}-status`}
                checked={filter.status === value}
                onChange={() => setFilter({ ...filter, status: value })}
              />
              {label}
            </label>
          ))}
        </fieldset>
        <div className="field">
          <label htmlFor={`${id}-persona`}>Persona</label>
          <select
            id={`${id}-persona`}
            value={filter.persona ?? ''}
            onChange={(e) => setFilter({ ...filter, persona: e.target.value || null })}
          >
            <option value="">Any persona</option>
            {personas.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        </div>
        <SizeFields id={id} size={filter.size} onChange={(size) => setFilter({ ...filter, size })} />
      </div>
    </div>
  )
}

/** Size from–to; either may stay empty. The fields keep what is typed until it is a valid range. */
function SizeFields({
  id,
  size,
  onChange,
}: {
  id: string
  size: SizeRange | null
  onChange: (size: SizeRange | null) => void
}) {
  const [from, setFrom] = useState(size?.from?.toString() ?? '')
  const [to, setTo] = useState(size?.to?.toString() ?? '')
  useEffect(() => {
    const typed = parseSizeRange(`${from}-${to}`)
    if (typed?.from === size?.from && typed?.to === size?.to) return
    setFrom(size?.from?.toString() ?? '')
    setTo(size?.to?.toString() ?? '')
    // Only a change from outside (a removed chip, a reload) resets the fields.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [size?.from, size?.to])
  const update = (nextFrom: string, nextTo: string) => {
    setFrom(nextFrom)
    setTo(nextTo)
    const range = parseSizeRange(`${nextFrom}-${nextTo}`)
    if (range || (nextFrom === '' && nextTo === '')) onChange(range)
  }
  return (
    <fieldset className="filter-size">
      <legend>Size</legend>
      <label htmlFor={`${id}-size-from`}>From</label>
      <input
        id={`${id}-size-from`}
        type="number"
        inputMode="numeric"
        min={0}
        max={999}
        value={from}
        onChange={(e) => update(e.target.value, to)}
      />
      <label htmlFor={`${id}-size-to`}>to</label>
      <input
        id={`${id}-size-to`}
        type="number"
        inputMode="numeric"
        min={0}
        max={999}
        value={to}
        onChange={(e) => update(from, e.target.value)}
      />
    </fieldset>
  )
}
