import { describe, expect, it } from 'vitest'
import {
  containsAllWords,
  highlightRanges,
  normalizeText,
  parseRangesKey,
  rangesKey,
  searchWords,
} from '~/features/board/text-search'

describe('normalizeText', () => {
  it('drops case and accents', () => {
    expect(normalizeText('Café CRÈME Ångström')).toBe('cafe creme angstrom')
    expect(normalizeText('İstanbul')).toBe('istanbul')
  })
  it('drops combining accents typed separately', () => {
    expect(normalizeText('cafe\u0301')).toBe('cafe')
  })
})

describe('searchWords', () => {
  it('splits on any white space, normalizes, drops repeats, longest first', () => {
    expect(searchWords('  Pay   by\tCARD pay ')).toEqual(['card', 'pay', 'by'])
    expect(searchWords('   ')).toEqual([])
  })
})

describe('containsAllWords', () => {
  it('needs every word, anywhere, in any order', () => {
    const text = normalizeText('Pay by card\nThe shopper pays at checkout')
    expect(containsAllWords(text, searchWords('checkout card'))).toBe(true)
    expect(containsAllWords(text, searchWords('card paypal'))).toBe(false)
    expect(containsAllWords(text, [])).toBe(true)
  })
})

describe('highlightRanges', () => {
  it('maps matches back to the original characters', () => {
    expect(highlightRanges('Café au lait', ['cafe'])).toEqual([[0, 4]])
    expect(highlightRanges('A cafe\u0301 here', ['cafe'])).toEqual([[2, 7]])
  })
  it('finds every occurrence of every word, merging overlaps', () => {
    expect(highlightRanges('Pay, pay later', ['pay'])).toEqual([
      [0, 3],
      [5, 8],
    ])
    expect(highlightRanges('checkout', ['check', 'heck', 'out'])).toEqual([[0, 8]])
  })
  it('is empty without words or matches', () => {
    expect(highlightRanges('Title', [])).toEqual([])
    expect(highlightRanges('Title', ['zz'])).toEqual([])
  })
  it('round-trips through its key', () => {
    const ranges = highlightRanges('Pay, pay later', ['pay'])
    expect(parseRangesKey(rangesKey(ranges))).toEqual(ranges)
    expect(parseRangesKey('')).toEqual([])
  })
})
