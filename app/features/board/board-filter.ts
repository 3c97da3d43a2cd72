import { ANNOTATION_LABELS, ANNOTATIONS, COLORS, ESTIMATE_MAX, type Annotation } from '../map/vocabulary'
import { COLOR_SWATCHES } from '../map/colors'

/**
 * The board's search and filters, as they live in the URL query (CONTRACT §9):
 * `q`, `color` and `annotation` (repeatable, SPEC names), `status=open|closed`, `persona=<id>`,
 * `size=3-8` (either end may be left open: `3-`, `-8`), `tag=<tagId>` (repeatable, a feature
 * with any of them; CONTRACT §12).
 */
export type FilterColor = (typeof COLORS)[number]
export type StatusFilter = 'open' | 'closed'
export type SizeRange = { from: number | null; to: number | null }

export type BoardFilter = {
  q: string
  colors: FilterColor[]
  annotations: Annotation[]
  status: StatusFilter | null
  persona: string | null
  size: SizeRange | null
  tags: string[]
}

export const NO_FILTER: BoardFilter = {
  q: '',
  colors: [],
  annotations: [],
  status: null,
  persona: null,
  size: null,
  tags: [],
}

/** The query names this module owns; every other parameter (e.g. `demo=1`) is left alone. */
export const FILTER_PARAMS = ['q', 'color', 'annotation', 'status', 'persona', 'size', 'tag'] as const

const sizeNumber = (text: string) => {
  if (text === '') return null
  const n = Number(text)
  return Number.isInteger(n) && n >= 0 && n <= ESTIMATE_MAX ? n : undefined
}

/** `3-8`, `3-`, `-8` or `5` (= `5-5`); anything else is no size filter. */
export function parseSizeRange(text: string | null): SizeRange | null {
  if (!text) return null
  const match = /^\s*(\d*)\s*(?:[-–]\s*(\d*))?\s*$/u.exec(text)
  if (!match) return null
  const from = sizeNumber(match[1])
  const to = match[2] === undefined ? from : sizeNumber(match[2])
  if (from === undefined || to === undefined || (from === null && to === null)) return null
  return from !== null && to !== null && from > to ? { from: to, to: from } : { from, to }
}

export function formatSizeRange(size: SizeRange): string {
  return `${size.from ?? ''}-${size.to ?? ''}`
}

/** Reads the filter from a query; unknown values are ignored, repeats kept once, in the vocabulary's order. */
export function parseBoardFilter(params: URLSearchParams): BoardFilter {
  const colors = params.getAll('color').map((c) => c.toUpperCase())
  const annotations = params.getAll('annotation').map((a) => a.toUpperCase())
  const status = params.get('status')
  const persona = params.get('persona')
  return {
    q: params.get('q') ?? '',
    colors: COLORS.filter((c) => colors.includes(c)),
    annotations: ANNOTATIONS.filter((a) => annotations.includes(a)),
    status: status === 'open' || status === 'closed' ? status : null,
    persona: persona ? persona : null,
    size: parseSizeRange(params.get('size')),
    tags: [...new Set(params.getAll('tag').filter((t) => t !== ''))],
  }
}

/** A copy of `params` holding `filter` in place of any earlier one; other parameters keep their order. */
export function writeBoardFilter(params: URLSearchParams, filter: BoardFilter): URLSearchParams {
  const next = new URLSearchParams()
  for (const [key, value] of params) {
    if (!(FILTER_PARAMS as readonly string[]).includes(key)) next.append(key, value)
  }
  if (filter.q !== '') next.set('q', filter.q)
  for (const color of filter.colors) next.append('color', color)
  for (const annotation of filter.annotations) next.append('annotation', annotation)
  if (filter.status) next.set('status', filter.status)
  if (filter.persona) next.set('persona', filter.persona)
  if (filter.size) next.set('size', formatSizeRange(filter.size))
  for (const tag of filter.tags ?? []) next.append('tag', tag)
  return next
}

/** `?a=1&b=2`, or '' when empty. */
export function queryString(params: URLSearchParams): string {
  const text = params.toString()
  return text ? `?${text}` : ''
}

/** True when the search or any filter narrows the board. */
export function isFiltering(filter: BoardFilter): boolean {
  return hasFilters(filter) || filter.q.trim() !== ''
}

/** True when a filter other than the search is set. */
export function hasFilters(filter: BoardFilter): boolean {
  return (
    filter.colors.length > 0 ||
    filter.annotations.length > 0 ||
    filter.status !== null ||
    filter.persona !== null ||
    filter.size !== null ||
    (filter.tags ?? []).length > 0
  )
}

export type FilterChip = { key: string; label: string; without: BoardFilter }

const STATUS_LABEL: Record<StatusFilter, string> = { open: 'Open', closed: 'Closed' }

/** One removable chip per filter value (the search has its own field); `without` is the filter after removing it. */
export function filterChips(
  filter: BoardFilter,
  personaName: (id: string) => string | undefined,
  tagName: (id: string) => string | undefined = () => undefined,
): FilterChip[] {
  const chips: FilterChip[] = []
  for (const color of filter.colors) {
    chips.push({
      key: `color:${color}`,
      label: `Color: ${COLOR_SWATCHES[color].label}`,
      without: { ...filter, colors: filter.colors.filter((c) => c !== color) },
    })
  }
  for (const annotation of filter.annotations) {
    chips.push({
      key: `annotation:${annotation}`,
      label: `Annotation: ${ANNOTATION_LABELS[annotation]}`,
      without: { ...filter, annotations: filter.annotations.filter((a) => a !== annotation) },
    })
  }
  if (filter.status) {
    chips.push({
      key: 'status',
      label: `Status: ${STATUS_LABEL[filter.status]}`,
      without: { ...filter, status: null },
    })
  }
  if (filter.persona) {
    chips.push({
      key: 'persona',
      label: `Persona: ${personaName(filter.persona) ?? 'unknown'}`,
      without: { ...filter, persona: null },
    })
  }
  if (filter.size) {
    const { from, to } = filter.size
    const label =
      from === null
        ? `up to ${to}`
        : to === null
          ? `${from} or more`
          : from === to
            ? `${from}`
            : `${from}–${to}`
    chips.push({ key: 'size', label: `Size: ${label}`, without: { ...filter, size: null } })
  }
  for (const tag of filter.tags ?? []) {
    chips.push({
      key: `tag:${tag}`,
      label: `Tag: ${tagName(tag) ?? 'unknown'}`,
      without: { ...filter, tags: filter.tags.filter((t) => t !== tag) },
    })
  }
  return chips
}
