import { useEffect, useRef, useState, type KeyboardEvent } from 'react'
import { filterChips, hasFilters, isFiltering, type BoardFilter } from '~/features/board/board-filter'
import { countOf, partOf } from '~/lib/counts'
import type { Persona } from '~/features/map/bundle-types'
import { useBoard } from './board-context'
import { FilterChips } from './filter-chips'
import { FilterPanel } from './filter-panel'
import type { SetFilter } from './use-board-filter'

export const SEARCH_FIELD_ID = 'board-search'

type Props = {
  filter: BoardFilter
  setFilter: SetFilter
  shown: number
  total: number
  /** Closed features the count leaves out: it then counts `open features`. */
  closedLeftOut: number
  personas: Persona[]
}

/**
 * Above the board: the `Search cards` field, the Filters panel, the `{n} of {m} features` line
 * and a removable chip per filter (CONTRACT §9).
 */
export function FindBar({ filter, setFilter, shown, total, closedLeftOut, personas }: Props) {
  const tags = useBoard().bundle.tags ?? []
  const [panelOpen, setPanelOpen] = useState(false)
  const filtersButton = useRef<HTMLButtonElement>(null)
  const field = useRef<HTMLInputElement>(null)

  const search = (q: string) => setFilter({ ...filter, q }, { typing: q !== '' })
  // Text typed before the page had its script is in the field, not yet in the filter (ADR 24).
  useEffect(() => {
    const typed = field.current?.value ?? filter.q
    if (typed !== filter.q) search(typed)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [])
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Escape') return
    event.preventDefault()
    // Not the persona panel's or a dialog's Escape: this one only clears the field.
    event.stopPropagation()
    search('')
  }
  const closePanel = () => {
    setPanelOpen(false)
    filtersButton.current?.focus()
  }
  const active =
    filter.colors.length +
    filter.annotations.length +
    (filter.status ? 1 : 0) +
    (filter.persona ? 1 : 0) +
    (filter.size ? 1 : 0)

  const printNote = [
    `Filtered view, ${countOf(shown, 'feature')} shown of ${total}`,
    ...(filter.q.trim() ? [`search “${filter.q.trim()}”`] : []),
    ...filterChips(
      filter,
      (id) => personas.find((p) => p.id === id)?.name,
      (id) => tags.find((t) => t.id === id)?.name,
    ).map((c) => c.label),
  ].join(' · ')

  return (
    <>
      {isFiltering(filter) ? <p className="print-only print-filter-note">{printNote}</p> : null}
      <div className="find" role="search" aria-label="Cards">
        <div className="find-bar">
          <input
            ref={field}
            id={SEARCH_FIELD_ID}
            type="search"
            className="find-field"
            aria-label="Search cards"
            placeholder="Search cards"
            autoComplete="off"
            spellCheck={false}
            value={filter.q}
            onChange={(e) => search(e.target.value)}
            onKeyDown={onKeyDown}
          />
          <button
            ref={filtersButton}
            type="button"
            className={`button small ${active > 0 ? 'active' : ''}`}
            aria-expanded={panelOpen}
            aria-controls="board-filters"
            onClick={() => setPanelOpen(!panelOpen)}
          >
            {active > 0 ? `Filters (${active})` : 'Filters'}
          </button>
          <p className="find-count" aria-live="polite">
            {partOf(shown, total, closedLeftOut > 0 ? 'open feature' : 'feature')}
          </p>
        </div>
        {panelOpen ? (
          <FilterPanel
            id="board-filters"
            filter={filter}
            setFilter={setFilter}
            personas={personas}
            onClose={closePanel}
          />
        ) : null}
        {hasFilters(filter) ? (
          <FilterChips filter={filter} setFilter={setFilter} personas={personas} />
        ) : null}
      </div>
    </>
  )
}
