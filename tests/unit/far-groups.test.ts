import { describe, expect, it } from 'vitest'
import { farGroupsCss, nearCounts } from '~/features/board/far-groups'

describe('nearCounts: the releases and goals the board opens on', () => {
  const box = { width: 1000, height: 600 }

  it('counts the goals that start inside the reach and the rows that start inside it', () => {
    // Goals start at 0, 300, 600, 900, 1200; rows are 100 px each.
    expect(nearCounts([0, 300, 600, 900, 1200], Array(20).fill(100), box, 1)).toEqual({ rows: 6, goals: 4 })
    expect(nearCounts([0, 300, 600, 900, 1200], Array(20).fill(100), box, 1.25)).toEqual({
      rows: 8,
      goals: 5,
    })
  })

  it('takes every goal and row of a map smaller than the box', () => {
    expect(nearCounts([0, 200], [50, 50, 50], box, 1)).toEqual({ rows: 3, goals: 2 })
  })

  it('rows of no height (folded, estimated at nothing) never end the count early', () => {
    expect(nearCounts([0], [0, 0, 0, 700, 0], box, 1)).toEqual({ rows: 4, goals: 1 })
  })

  it('keeps at least the first release and goal, whatever the box', () => {
    expect(nearCounts([0, 10], [5000, 10], { width: 0, height: 0 }, 1)).toEqual({ rows: 1, goals: 1 })
  })
})

describe('farGroupsCss: the rule that keeps far groups from being laid out', () => {
  it('hides the groups past the near releases or past the near goals, on screen only', () => {
    expect(farGroupsCss(10, 6)).toBe(
      '@media screen{.release-list>.release:nth-child(n+11) .cell-group,' +
        '.release-cells>.cell-group:nth-child(n+7){content-visibility:hidden}}',
    )
  })
})
