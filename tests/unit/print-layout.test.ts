import { describe, expect, it } from 'vitest'
import { cssString, printGridColumn, printLayout, printPageRule } from '~/features/board/print-layout'

const goal = (id: string, activities: number) => ({
  id,
  activityIds: Array.from({ length: activities }, (_, i) => `${id}.${i + 1}`),
})

describe('printLayout', () => {
  it('packs whole goals into bands of at most six columns', () => {
    const layout = printLayout([goal('a', 3), goal('b', 2), goal('c', 2), goal('d', 4)])
    expect(layout.bands).toBe(2)
    expect(layout.goals.get('a')).toEqual({ band: 0, column: 0, span: 3 })
    expect(layout.goals.get('b')).toEqual({ band: 0, column: 3, span: 2 })
    expect(layout.goals.get('c')).toEqual({ band: 1, column: 0, span: 2 })
    expect(layout.goals.get('d')).toEqual({ band: 1, column: 2, span: 4 })
    expect(layout.columns.get('d.4')).toEqual({ band: 1, column: 5 })
  })

  it('gives a goal without activities one column', () => {
    const layout = printLayout([goal('a', 0), goal('b', 1)])
    expect(layout.columns.get('a')).toEqual({ band: 0, column: 0 })
    expect(layout.goals.get('b')).toEqual({ band: 0, column: 1, span: 1 })
  })

  it('cuts a goal wider than a band into band-wide pieces', () => {
    const layout = printLayout([goal('a', 2), goal('w', 8)], 6)
    expect(layout.goals.get('w')).toEqual({ band: 1, column: 0, span: 6 })
    expect(layout.columns.get('w.6')).toEqual({ band: 1, column: 5 })
    expect(layout.columns.get('w.7')).toEqual({ band: 2, column: 0 })
    expect(layout.bands).toBe(3)
  })

  it('has no band for an empty map', () => {
    expect(printLayout([]).bands).toBe(0)
  })

  it('writes grid columns after the release names', () => {
    expect(printGridColumn({ band: 0, column: 0 })).toBe('2')
    expect(printGridColumn({ band: 1, column: 2 }, 3)).toBe('4 / span 3')
  })
})

describe('cssString and printPageRule', () => {
  it('escapes quotes, backslashes and markup', () => {
    expect(cssString('Shop & café')).toBe('"Shop & café"')
    expect(cssString('a"b\\c</style>')).toBe('"a\\22 b\\5c c\\3c \\2f style\\3e "')
    expect(cssString('line\nbreak')).toBe('"line\\a break"')
  })
  it('puts the title and the date on every landscape page', () => {
    const rule = printPageRule('Online shop', 'Nov 22, 2026')
    expect(rule).toContain('size: landscape')
    expect(rule).toContain('@top-left { content: "Online shop";')
    expect(rule).toContain('@top-right { content: "Nov 22, 2026";')
    expect(printPageRule('X', null)).not.toContain('@top-right')
  })
})
