import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  isRank,
  MAX_RANK_LENGTH,
  moveIndexFromVisible,
  placeBetween,
  placeInList,
  placeOfMove,
  rankBetween,
  rebalanceRanks,
} from '~/features/map/rank'

const between = (a: string | null, b: string | null) => {
  const r = rankBetween(a, b)
  expect(r).not.toBeNull()
  if (a !== null) expect(r! > a).toBe(true)
  if (b !== null) expect(r! < b).toBe(true)
  expect(isRank(r)).toBe(true)
  return r!
}

describe('rankBetween', () => {
  it('starts an empty list in the middle', () => {
    expect(rankBetween(null, null)).toBe('n')
  })
  it('appends with the smallest step and prepends with the largest', () => {
    expect(rankBetween('n', null)).toBe('o')
    expect(rankBetween(null, 'n')).toBe('m')
    expect(rankBetween('z', null)).toBe('zb')
    expect(rankBetween('zz', null)).toBe('zzb')
    expect(rankBetween(null, 'b')).toBe('az')
    expect(rankBetween(null, 'ab')).toBe('aaz')
  })
  it('finds the shortest rank between neighbours', () => {
    expect(rankBetween('b', 'd')).toBe('c')
    expect(between('y', 'z')).toBe('yn')
    expect(between('a', 'b')).toBe('an')
    expect(between('az', 'b')).toBe('azn')
    expect(between('b', 'bb')).toBe('ban')
    expect(between('yz', 'z')).toHaveLength(3)
  })
  it('handles long strings', () => {
    between('abcdefg', 'abcdefh')
    between('mmmmmm', 'mmmmmmb')
    expect(between('abcdefghijklmnop', 'abd')).toHaveLength(4)
    expect(between('b', 'bzzzzzzzzzzzz')).toBe('bn')
    between(null, 'aaaaaab')
    between('zzzzzzz', null)
  })
  it('answers null when no rank of at most MAX_RANK_LENGTH fits', () => {
    expect(
      rankBetween('a'.repeat(MAX_RANK_LENGTH - 1) + 'b', 'a'.repeat(MAX_RANK_LENGTH - 1) + 'c'),
    ).toBeNull()
    expect(rankBetween('z'.repeat(MAX_RANK_LENGTH), null)).toBeNull()
    expect(rankBetween(null, 'a'.repeat(MAX_RANK_LENGTH - 1) + 'b')).toBeNull()
  })
  it('refuses neighbours out of order', () => {
    expect(() => rankBetween('c', 'b')).toThrow()
    expect(() => rankBetween('c', 'c')).toThrow()
  })
  it('always lies strictly between any two valid ranks (property)', () => {
    const rank = fc.stringMatching(/^[a-z]{0,6}[b-z]$/)
    fc.assert(
      fc.property(rank, rank, (x, y) => {
        fc.pre(x !== y)
        const [a, b] = x < y ? [x, y] : [y, x]
        const r = rankBetween(a, b)
        if (r === null) return
        expect(r > a && r < b).toBe(true)
        expect(isRank(r)).toBe(true)
        expect(r.length).toBeLessThanOrEqual(MAX_RANK_LENGTH)
      }),
    )
  })
})

describe('rebalanceRanks', () => {
  it('gives distinct, ordered, valid ranks with room between them', () => {
    for (const n of [1, 2, 3, 25, 26, 100, 1000]) {
      const ranks = rebalanceRanks(n)
      expect(ranks).toHaveLength(n)
      expect(new Set(ranks).size).toBe(n)
      expect([...ranks].sort()).toEqual(ranks)
      for (const r of ranks) expect(isRank(r)).toBe(true)
      for (let i = 1; i < n; i++) expect(rankBetween(ranks[i - 1], ranks[i])).not.toBeNull()
      expect(rankBetween(null, ranks[0])).not.toBeNull()
      expect(rankBetween(ranks[n - 1], null)).not.toBeNull()
    }
    expect(rebalanceRanks(0)).toEqual([])
  })
})

describe('placeInList', () => {
  it('places a card at index, counting every sibling and clamping past the end', () => {
    const list = ['c', 'f', 'k']
    expect(placeInList(list, 0)).toEqual({ rank: 'b', rebalanced: null })
    expect(placeInList(list, 1).rank).toMatch(/^[d-e]/)
    expect(placeInList(list, 3)).toEqual({ rank: 'l', rebalanced: null })
    expect(placeInList(list, 99)).toEqual({ rank: 'l', rebalanced: null })
    expect(placeInList([], 5)).toEqual({ rank: 'n', rebalanced: null })
  })
  it('rebalances the whole list when no rank fits, keeping the order', () => {
    const tight = ['b', 'b' + 'a'.repeat(MAX_RANK_LENGTH - 2) + 'b', 'c']
    const placed = placeInList(tight, 1)
    expect(placed.rebalanced).not.toBeNull()
    const all = [...placed.rebalanced!]
    all.splice(1, 0, placed.rank)
    expect([...all].sort()).toEqual(all)
    expect(new Set(all).size).toBe(4)
  })
  it('keeps any sequence of moves into one gap ordered, rebalancing as needed (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(20), { minLength: 1, maxLength: 200 }), (indexes) => {
        let list: { id: number; rank: string }[] = []
        let expected: number[] = []
        indexes.forEach((index, id) => {
          const ranks = list.map((c) => c.rank)
          const placed = placeInList(ranks, index)
          if (placed.rebalanced) list = list.map((c, i) => ({ ...c, rank: placed.rebalanced![i] }))
          const at = Math.min(index, list.length)
          list.splice(at, 0, { id, rank: placed.rank })
          expected.splice(at, 0, id)
          const sorted = [...list].sort((a, b) => (a.rank < b.rank ? -1 : 1))
          expect(sorted.map((c) => c.id)).toEqual(expected)
          expect(new Set(list.map((c) => c.rank)).size).toBe(list.length)
        })
        expected = []
      }),
      { numRuns: 50 },
    )
  })
})

describe('moveIndexFromVisible', () => {
  const list = [
    { id: 'a', open: true },
    { id: 'b', open: false },
    { id: 'c', open: true },
    { id: 'd', open: false },
  ]
  const visible = (c: { open: boolean }) => c.open
  it('maps a drop position among visible cards to the index among all siblings', () => {
    expect(moveIndexFromVisible(list, 0, visible)).toBe(0)
    expect(moveIndexFromVisible(list, 1, visible)).toBe(1) // right after a
    expect(moveIndexFromVisible(list, 2, visible)).toBe(3) // right after c
    expect(moveIndexFromVisible(list, 9, visible)).toBe(4)
    expect(moveIndexFromVisible([], 3, visible)).toBe(0)
  })
})

describe('placeOfMove and placeBetween', () => {
  const list = ['p1', 'p2', 'p3']
  it('goes right after afterId, else right before beforeId, else to the index', () => {
    expect(placeOfMove(list, { afterId: 'p2', beforeId: 'p1', index: 0 })).toBe(2)
    expect(placeOfMove(list, { afterId: 'gone', beforeId: 'p3', index: 0 })).toBe(2)
    expect(placeOfMove(list, { afterId: 'gone', beforeId: 'gone', index: 1 })).toBe(1)
    expect(placeOfMove(list, { beforeId: 'p1' })).toBe(0)
    expect(placeOfMove(list, { afterId: 'p3' })).toBe(3)
    expect(placeOfMove(list, { afterId: 'gone' })).toBeNull()
    expect(placeOfMove(list, {})).toBeNull()
  })
  it('names the cards on either side of a drop index, and keeps the index', () => {
    const cards = list.map((id) => ({ id }))
    expect(placeBetween(cards, 0)).toEqual({ index: 0, beforeId: 'p1' })
    expect(placeBetween(cards, 2)).toEqual({ index: 2, afterId: 'p2', beforeId: 'p3' })
    expect(placeBetween(cards, 3)).toEqual({ index: 3, afterId: 'p3' })
    expect(placeBetween([], 5)).toEqual({ index: 0 })
  })
  it('keeps a drop beside the card it was made by when another card left the list (issue 43)', () => {
    // Dropped above p3 in p1 p2 p3; p1 has gone since: an index would land below p3.
    const drop = placeBetween(
      list.map((id) => ({ id })),
      2,
    )
    expect(placeOfMove(['p2', 'p3'], drop)).toBe(1)
    expect(placeOfMove(['p2', 'p3'], { index: drop.index })).toBe(2)
  })
})
