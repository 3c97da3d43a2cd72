import { useEffect, useRef } from 'react'
import { filterChips, NO_FILTER, type BoardFilter } from '~/features/board/board-filter'
import type { Persona } from '~/features/map/bundle-types'
import { useBoard } from './board-context'

/**
 * A chip per active filter; each removes only its own value. The search has its own field.
 * After a removal, focus goes to the next chip (or the one before, or `Clear filters`).
 */
export function FilterChips({
  filter,
  setFilter,
  personas,
}: {
  filter: BoardFilter
  setFilter: (next: BoardFilter) => void
  personas: Persona[]
}) {
  const tags = useBoard().bundle.tags ?? []
  const chips = filterChips(
    filter,
    (id) => personas.find((p) => p.id === id)?.name,
    (id) => tags.find((t) => t.id === id)?.name,
  )
  const list = useRef<HTMLUListElement>(null)
  const focusAfterRemoval = useRef<number | null>(null)
  const keys = chips.map((c) => c.key).join(' ')
  useEffect(() => {
    const index = focusAfterRemoval.current
    if (index === null) return
    focusAfterRemoval.current = null
    const buttons = list.current?.querySelectorAll('button') ?? []
    const target = buttons[Math.min(index, buttons.length - 1)]
    ;(target ?? list.current?.parentElement?.querySelector<HTMLButtonElement>('.clear-filters'))?.focus()
  }, [keys])
  return (
    <div className="filter-chips">
      <ul aria-label="Active filters" ref={list}>
        {chips.map((chip, index) => (
          <li key={chip.key}>
            <button
              type="button"
              className="chip"
              aria-label={`${chip.label} (remove filter)`}
              onClick={() => {
                focusAfterRemoval.current = index
                setFilter(chip.without)
              }}
            >
              {chip.label}
              <span aria-hidden="true"> ✕</span>
            </button>
          </li>
        ))}
      </ul>
      <button
        type="button"
        className="link-button small clear-filters"
        onClick={() => setFilter({ ...NO_FILTER, q: filter.q })}
      >
        Clear filters
      </button>
    </div>
  )
}
