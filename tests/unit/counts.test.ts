import { describe, expect, it } from 'vitest'
import { countOf, partOf } from '~/lib/counts'

describe('countOf', () => {
  it('writes one thing in the singular, any other count in the plural (CONTRACT: `1 project` / `{n} projects`)', () => {
    expect(countOf(0, 'project')).toBe('0 projects')
    expect(countOf(1, 'project')).toBe('1 project')
    expect(countOf(2, 'project')).toBe('2 projects')
    expect(countOf(1, 'feature')).toBe('1 feature')
    expect(countOf(3, 'activity', 'activities')).toBe('3 activities')
  })
})

describe('partOf', () => {
  it('writes the whole alone when nothing is left out', () => {
    expect(partOf(null, 1, 'feature')).toBe('1 feature')
    expect(partOf(null, 4, 'feature')).toBe('4 features')
  })

  it('writes the part of the whole, the noun agreeing with the whole', () => {
    expect(partOf(1, 4, 'feature')).toBe('1 of 4 features')
    expect(partOf(0, 1, 'feature')).toBe('0 of 1 feature')
    expect(partOf(1, 1, 'feature')).toBe('1 of 1 feature')
  })
})
