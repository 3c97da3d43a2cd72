import { describe, expect, it } from 'vitest'
import { buildGrid } from '~/features/board/board-grid'
import {
  addActivityNavId,
  addFeatureNavId,
  cardIdOfHref,
  navLayout,
  neighbour,
  stopAfterRemoval,
  type NavLayout,
} from '~/features/board/board-nav'
import type { ProjectBundle } from '~/features/map/bundle-types'

/*
 *            g1            g2      g3
 *       a1        a2       a3      (none)
 * r1    f1, f2    -        f3
 * r2    f4        f5, f6   -
 */
const layout: NavLayout = {
  goals: ['g1', 'g2', 'g3'],
  activityRow: [
    { id: 'a1', goalId: 'g1', column: 0 },
    { id: 'a2', goalId: 'g1', column: 1 },
    { id: 'a3', goalId: 'g2', column: 2 },
  ],
  releases: [
    { id: 'r1', columns: [['f1', 'f2'], [], ['f3']] },
    { id: 'r2', columns: [['f4'], ['f5', 'f6'], []] },
  ],
}
const walk = (from: string, ...moves: ('left' | 'right' | 'up' | 'down')[]) =>
  moves.reduce<string | null>((at, move) => (at === null ? null : neighbour(layout, at, move)), from)

describe('neighbour', () => {
  it('moves along the goal row and down into the goal’s activities', () => {
    expect(walk('g1', 'right')).toBe('g2')
    expect(walk('g2', 'left')).toBe('g1')
    expect(walk('g3', 'right')).toBeNull()
    expect(walk('g1', 'up')).toBeNull()
    expect(walk('g2', 'down')).toBe('a3')
    expect(walk('g3', 'down')).toBeNull()
  })

  it('moves along the activity row, up to the goal and down into the column', () => {
    expect(walk('a1', 'right')).toBe('a2')
    expect(walk('a2', 'right')).toBe('a3')
    expect(walk('a2', 'up')).toBe('g1')
    expect(walk('a1', 'down')).toBe('f1')
    expect(walk('a2', 'down')).toBe('f5') // r1 has nothing under a2
  })

  it('moves within a cell, then across releases, then up to the activity', () => {
    expect(walk('f1', 'down')).toBe('f2')
    expect(walk('f2', 'down')).toBe('f4')
    expect(walk('f4', 'down')).toBeNull()
    expect(walk('f4', 'up')).toBe('f2')
    expect(walk('f1', 'up')).toBe('a1')
    expect(walk('f5', 'up')).toBe('a2')
  })

  it('moves left and right to the nearest card of the next non-empty column in the same release', () => {
    expect(walk('f2', 'right')).toBe('f3') // skips the empty a2 cell
    expect(walk('f3', 'left')).toBe('f1')
    expect(walk('f6', 'left')).toBe('f4') // f4 is the nearest in a shorter column
    expect(walk('f4', 'right')).toBe('f5')
    expect(walk('f3', 'right')).toBeNull()
    expect(walk('f1', 'left')).toBe('r1')
  })

  it('moves between release cards and into their rows', () => {
    expect(walk('r1', 'down')).toBe('r2')
    expect(walk('r2', 'up')).toBe('r1')
    expect(walk('r1', 'up')).toBeNull()
    expect(walk('r2', 'right')).toBe('f4')
    expect(walk('r1', 'left')).toBeNull()
  })

  it('goes card to card past the + of filled cells, and stops at the + of an empty cell', () => {
    // The same board, editable: every cell ends in its `+`.
    const add = (r: string, a: string) => addFeatureNavId(r, a)
    const editable: NavLayout = {
      ...layout,
      releases: [
        { id: 'r1', columns: [['f1', 'f2', add('r1', 'a1')], [add('r1', 'a2')], ['f3', add('r1', 'a3')]] },
        { id: 'r2', columns: [['f4', add('r2', 'a1')], ['f5', 'f6', add('r2', 'a2')], [add('r2', 'a3')]] },
      ],
    }
    const go = (from: string, ...moves: ('left' | 'right' | 'up' | 'down')[]) =>
      moves.reduce<string | null>((at, move) => (at === null ? null : neighbour(editable, at, move)), from)
    expect(go('f2', 'down')).toBe('f4') // not the cell's +
    expect(go('f4', 'up')).toBe('f2')
    expect(go('f4', 'down')).toBeNull()
    expect(go('a2', 'down')).toBe(add('r1', 'a2')) // the empty cell's + is its card
    expect(go(add('r1', 'a2'), 'down')).toBe('f5')
    expect(go('f5', 'up')).toBe(add('r1', 'a2'))
    expect(go('f2', 'right')).toBe(add('r1', 'a2'))
    expect(go(add('r1', 'a2'), 'right')).toBe('f3')
    expect(go('f3', 'down')).toBe(add('r2', 'a3'))
    expect(go('f6', 'right')).toBe(add('r2', 'a3'))
    // A filled cell's + that has the focus anyway (clicked) sits below the cell's last card.
    expect(go(add('r1', 'a1'), 'up')).toBe('f2')
    expect(go(add('r1', 'a1'), 'down')).toBe('f4')
    expect(go(add('r1', 'a1'), 'right')).toBe(add('r1', 'a2'))
  })

  it('answers null for an unknown id', () => {
    expect(neighbour(layout, 'nope', 'up')).toBeNull()
  })
})

describe('stopAfterRemoval', () => {
  const add = addFeatureNavId
  const editable: NavLayout = {
    ...layout,
    releases: [
      { id: 'r1', columns: [['f1', 'f2', add('r1', 'a1')], [add('r1', 'a2')], ['f3', add('r1', 'a3')]] },
      { id: 'r2', columns: [['f4', add('r2', 'a1')], ['f5', 'f6', add('r2', 'a2')], [add('r2', 'a3')]] },
    ],
  }
  it('gives a feature’s place to the card after it in its cell, else the one before, else the cell’s +', () => {
    expect(stopAfterRemoval(editable, 'f1')).toBe('f2')
    expect(stopAfterRemoval(editable, 'f2')).toBe('f1')
    expect(stopAfterRemoval(editable, 'f3')).toBe(add('r1', 'a3'))
    expect(stopAfterRemoval(layout, 'f3')).toBe('r1') // a read-only board has no +
  })
  it('gives a release’s, goal’s or activity’s place to the next of its row, else the one before', () => {
    expect(stopAfterRemoval(editable, 'r1')).toBe('r2')
    expect(stopAfterRemoval(editable, 'r2')).toBe('r1')
    expect(stopAfterRemoval(editable, 'g3')).toBe('g2')
    expect(stopAfterRemoval(editable, 'a1')).toBe('a2')
    expect(stopAfterRemoval(editable, 'a2')).toBe('a1')
    expect(stopAfterRemoval(editable, 'a3')).toBe('g2') // its goal's only activity
    expect(stopAfterRemoval(editable, 'nope')).toBeNull()
  })
})

describe('navLayout', () => {
  const card = (id: string, rank: string, extra: Record<string, unknown> = {}): any => ({
    id,
    rank,
    title: id,
    status: 'OPEN',
    color: '',
    annotations: '',
    ...extra,
  })
  const bundle = {
    milestones: [card('r1', 'b')],
    workflows: [card('g1', 'b'), card('g2', 'c')],
    subWorkflows: [card('a1', 'b', { workflowId: 'g1' })],
    features: [
      card('f1', 'b', { milestoneId: 'r1', subWorkflowId: 'a1', estimate: 0 }),
      card('f2', 'c', { milestoneId: 'r1', subWorkflowId: 'a1', estimate: 0 }),
    ],
  } as unknown as ProjectBundle
  const grid = buildGrid(bundle, false)

  it('lists the shown cards of each cell, and the add buttons when editable', () => {
    expect(navLayout(grid, (f) => f.id !== 'f1', true)).toEqual({
      goals: ['g1', 'g2'],
      activityRow: [
        { id: 'a1', goalId: 'g1', column: 0 },
        { id: addActivityNavId('g2'), goalId: 'g2', column: null },
      ],
      releases: [{ id: 'r1', columns: [['f2', addFeatureNavId('r1', 'a1')]] }],
    })
    expect(navLayout(grid, () => true, false).releases).toEqual([{ id: 'r1', columns: [['f1', 'f2']] }])
  })

  it('leaves out what folded goals and releases hide, keeping their own cards as stops (CONTRACT §15)', () => {
    expect(navLayout(grid, () => true, true, { goals: new Set(['g1']), releases: new Set() })).toEqual({
      goals: ['g1', 'g2'],
      activityRow: [{ id: addActivityNavId('g2'), goalId: 'g2', column: null }],
      releases: [{ id: 'r1', columns: [] }],
    })
    expect(
      navLayout(grid, () => true, false, { goals: new Set(), releases: new Set(['r1']) }).releases,
    ).toEqual([{ id: 'r1', columns: [[]] }])
  })
})

describe('navLayout at 25 %', () => {
  const card = (id: string, rank: string, extra: Record<string, unknown> = {}): any => ({
    id,
    rank,
    title: id,
    status: 'OPEN',
    color: '',
    annotations: '',
    ...extra,
  })
  const bundle = {
    milestones: [card('r1', 'b')],
    workflows: [card('g1', 'b')],
    subWorkflows: [card('a1', 'b', { workflowId: 'g1' }), card('a2', 'c', { workflowId: 'g1' })],
    features: [
      card('f1', 'b', { milestoneId: 'r1', subWorkflowId: 'a1', estimate: 0 }),
      card('f2', 'b', { milestoneId: 'r1', subWorkflowId: 'a2', estimate: 0, status: 'CLOSED' }),
    ],
  } as unknown as ProjectBundle
  const grid = buildGrid(bundle, true)
  const open = (f: { status: string }) => f.status !== 'CLOSED'

  it('gives only a cell without drawn cards its `+`: one hidden by the search has none', () => {
    const hiddenBySearch = navLayout(grid, () => false, true, undefined, open)
    expect(hiddenBySearch.releases[0].columns).toEqual([[], [addFeatureNavId('r1', 'a2')]])
    expect(navLayout(grid, open, true, undefined, open).releases[0].columns).toEqual([
      ['f1'],
      [addFeatureNavId('r1', 'a2')],
    ])
  })
})

describe('cardIdOfHref', () => {
  it("reads the card from a tile's link as written, with or without the board's query", () => {
    expect(cardIdOfHref('/acme/projects/p1/f/f-42')).toBe('f-42')
    expect(cardIdOfHref('/acme/projects/p1/f/f-42?q=pay&status=OPEN')).toBe('f-42')
    expect(cardIdOfHref('/link/key/m/r-7#top')).toBe('r-7')
  })
})
