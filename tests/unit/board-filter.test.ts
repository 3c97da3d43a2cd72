import { describe, expect, it } from 'vitest'
import {
  filterChips,
  hasFilters,
  isFiltering,
  NO_FILTER,
  parseBoardFilter,
  parseSizeRange,
  queryString,
  writeBoardFilter,
} from '~/features/board/board-filter'

const parse = (query: string) => parseBoardFilter(new URLSearchParams(query))

describe('parseBoardFilter', () => {
  it('reads every parameter of CONTRACT §9', () => {
    expect(
      parse(
        'q=pay+card&color=RED&color=BLUE&annotation=RISKY&status=closed&persona=p1&size=3-8&tag=t1&tag=t2&tag=t1',
      ),
    ).toEqual({
      q: 'pay card',
      colors: ['RED', 'BLUE'],
      annotations: ['RISKY'],
      status: 'closed',
      persona: 'p1',
      size: { from: 3, to: 8 },
      tags: ['t1', 't2'],
    })
  })
  it('is no filter for an empty query', () => {
    expect(parse('')).toEqual(NO_FILTER)
    expect(parse('demo=1')).toEqual(NO_FILTER)
  })
  it('ignores unknown values and keeps repeats once, in SPEC order', () => {
    expect(parse('color=PLAID&color=blue&color=RED&color=BLUE&annotation=NOPE&status=maybe&size=x')).toEqual({
      ...NO_FILTER,
      colors: ['RED', 'BLUE'],
    })
  })
})

describe('parseSizeRange', () => {
  it('reads closed, open-ended and single sizes', () => {
    expect(parseSizeRange('3-8')).toEqual({ from: 3, to: 8 })
    expect(parseSizeRange('3-')).toEqual({ from: 3, to: null })
    expect(parseSizeRange('-8')).toEqual({ from: null, to: 8 })
    expect(parseSizeRange('5')).toEqual({ from: 5, to: 5 })
    expect(parseSizeRange('8-3')).toEqual({ from: 3, to: 8 })
  })
  it('refuses what is not a size range', () => {
    for (const bad of [null, '', '-', 'a-b', '1000-', '1.5-2', '3-8-9'])
      expect(parseSizeRange(bad)).toBeNull()
  })
})

describe('writeBoardFilter', () => {
  it('keeps other parameters and writes the filter in a fixed order', () => {
    const params = writeBoardFilter(new URLSearchParams('demo=1&q=old&color=RED'), {
      ...NO_FILTER,
      q: 'café',
      colors: ['GREEN'],
      annotations: ['RISKY', 'BLOCKED'],
      status: 'open',
      persona: 'p1',
      size: { from: null, to: 8 },
    })
    expect(params.toString()).toBe(
      'demo=1&q=caf%C3%A9&color=GREEN&annotation=RISKY&annotation=BLOCKED&status=open&persona=p1&size=-8',
    )
  })
  it('round-trips through parseBoardFilter', () => {
    const filter = parse('q=a+b&color=RED&annotation=IDEA&status=closed&persona=x&size=2-')
    expect(parseBoardFilter(writeBoardFilter(new URLSearchParams(), filter))).toEqual(filter)
  })
  it('leaves no filter parameter for no filter', () => {
    expect(queryString(writeBoardFilter(new URLSearchParams('q=x&demo=1&size=1-2'), NO_FILTER))).toBe(
      '?demo=1',
    )
    expect(queryString(writeBoardFilter(new URLSearchParams('q=x'), NO_FILTER))).toBe('')
  })
})

describe('isFiltering and hasFilters', () => {
  it('tell the search from the other filters', () => {
    expect(isFiltering(NO_FILTER)).toBe(false)
    expect(isFiltering({ ...NO_FILTER, q: '  ' })).toBe(false)
    expect(isFiltering({ ...NO_FILTER, q: 'x' })).toBe(true)
    expect(hasFilters({ ...NO_FILTER, q: 'x' })).toBe(false)
    expect(hasFilters({ ...NO_FILTER, status: 'open' })).toBe(true)
  })
})

describe('filterChips', () => {
  it('labels each value and removes only it', () => {
    const filter = parse('q=x&color=RED&color=BLUE&annotation=SPLIT&status=open&persona=p1&size=3-8')
    const chips = filterChips(filter, (id) => (id === 'p1' ? 'Pat' : undefined))
    expect(chips.map((c) => c.label)).toEqual([
      'Color: Red',
      'Color: Blue',
      'Annotation: Can be split',
      'Status: Open',
      'Persona: Pat',
      'Size: 3–8',
    ])
    expect(chips[0].without).toEqual({ ...filter, colors: ['BLUE'] })
    expect(chips[5].without.size).toBeNull()
    expect(chips[5].without.q).toBe('x')
  })
  it('words open size ranges and unknown personas', () => {
    const labels = (query: string) => filterChips(parse(query), () => undefined).map((c) => c.label)
    expect(labels('size=3-')).toEqual(['Size: 3 or more'])
    expect(labels('size=-8')).toEqual(['Size: up to 8'])
    expect(labels('size=5')).toEqual(['Size: 5'])
    expect(labels('persona=gone')).toEqual(['Persona: unknown'])
  })
})
