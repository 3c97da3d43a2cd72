import { describe, expect, it } from 'vitest'
import { buildGrid } from '~/features/board/board-grid'
import type { ProjectBundle } from '~/features/map/bundle-types'
import { cardTitle, dragWords, dropCommand, moveAcrossReleases, placeName } from '~/features/board/drag-moves'

const card = (id: string, rank: string, extra: Record<string, unknown> = {}): any => ({
  id,
  rank,
  title: id.toUpperCase(),
  status: 'OPEN',
  color: '',
  annotations: '',
  ...extra,
})
const feature = (id: string, rank: string, milestoneId: string, extra: Record<string, unknown> = {}) =>
  card(id, rank, { milestoneId, subWorkflowId: 'search', estimate: 0, ...extra })

/*
 *          shop
 *          search        pay
 *   mvp    p1 p2(closed) p3
 *   later  x
 *   next   (empty)
 */
const bundle = {
  milestones: [card('mvp', 'b'), card('later', 'c'), card('next', 'd')],
  workflows: [card('shop', 'b')],
  subWorkflows: [card('search', 'b', { workflowId: 'shop' }), card('pay', 'c', { workflowId: 'shop' })],
  features: [
    feature('p1', 'b', 'mvp'),
    feature('p2', 'c', 'mvp', { status: 'CLOSED' }),
    feature('p3', 'd', 'mvp'),
    feature('x', 'b', 'later'),
  ],
} as unknown as ProjectBundle
const grid = buildGrid(bundle, false)
const closedHidden = { showClosed: false, includeClosed: false }

describe('the words of a drag', () => {
  it('names places and cards by their titles, never by ids', () => {
    expect(placeName(bundle, 'cell:mvp:search')).toBe('MVP / SEARCH')
    expect(placeName(bundle, 'activities:shop')).toBe('goal SHOP')
    expect(placeName(bundle, 'goals')).toBe('the goals')
    expect(placeName(bundle, 'releases')).toBe('the releases')
    expect(cardTitle(bundle, 'x')).toBe('X')
    expect(dragWords.moved('Category pages', 'Later / Search', 0)).toBe(
      "Moved 'Category pages' to Later / Search, position 1",
    )
  })
})

describe('dropCommand', () => {
  it('names the cards on either side of the drop (hidden closed ones counted in the index)', () => {
    // Dropped below p1, the first visible card: after p1, before the hidden p2.
    expect(
      dropCommand(
        bundle,
        grid,
        { id: 'x', type: 'FEATURE', destination: { droppableId: 'cell:mvp:search', index: 1 } },
        closedHidden,
      ),
    ).toEqual({
      type: 'feature.move',
      id: 'x',
      toMilestoneId: 'mvp',
      toSubWorkflowId: 'search',
      index: 1,
      afterId: 'p1',
      beforeId: 'p2',
    })
    expect(
      dropCommand(
        bundle,
        grid,
        { id: 'mvp', type: 'RELEASE', destination: { droppableId: 'releases', index: 2 } },
        closedHidden,
      ),
    ).toEqual({
      type: 'milestone.move',
      id: 'mvp',
      index: 2,
      afterId: 'next',
    })
    expect(
      dropCommand(
        bundle,
        grid,
        { id: 'x', type: 'FEATURE', destination: { droppableId: 'goals', index: 0 } },
        closedHidden,
      ),
    ).toBeNull()
  })
})

describe('moveAcrossReleases', () => {
  it('goes on from the bottom of a cell to the top of the cell below, and from the top to the bottom of the cell above', () => {
    const down = moveAcrossReleases(
      grid,
      { id: 'p3', over: { droppableId: 'cell:mvp:search', index: 1 } },
      'down',
      false,
    )
    expect(down?.to).toEqual({ droppableId: 'cell:later:search', index: 0 })
    expect(down?.move).toMatchObject({
      toMilestoneId: 'later',
      toSubWorkflowId: 'search',
      index: 0,
      beforeId: 'x',
    })
    const up = moveAcrossReleases(
      grid,
      { id: 'x', over: { droppableId: 'cell:later:search', index: 0 } },
      'up',
      false,
    )
    // Last in MVP / Search: after p3, position 3 among the two shown cards (p2 is closed and hidden).
    expect(up?.to).toEqual({ droppableId: 'cell:mvp:search', index: 2 })
    expect(up?.move).toMatchObject({ toMilestoneId: 'mvp', index: 3, afterId: 'p3' })
    expect(
      moveAcrossReleases(
        grid,
        { id: 'x', over: { droppableId: 'cell:later:search', index: 0 } },
        'down',
        false,
      )?.to,
    ).toEqual({
      droppableId: 'cell:next:search',
      index: 0,
    })
  })
  it('leaves a move within the cell, or past the first or last release, to the drag library', () => {
    expect(
      moveAcrossReleases(
        grid,
        { id: 'p1', over: { droppableId: 'cell:mvp:search', index: 0 } },
        'down',
        false,
      ),
    ).toBeNull()
    expect(
      moveAcrossReleases(grid, { id: 'p1', over: { droppableId: 'cell:mvp:search', index: 0 } }, 'up', false),
    ).toBeNull()
    expect(
      moveAcrossReleases(grid, { id: 'p3', over: { droppableId: 'cell:mvp:search', index: 1 } }, 'up', false),
    ).toBeNull()
    expect(
      moveAcrossReleases(grid, { id: 'x', over: { droppableId: 'cell:next:pay', index: 0 } }, 'down', false),
    ).toBeNull()
    expect(
      moveAcrossReleases(grid, { id: 'x', over: { droppableId: 'releases', index: 0 } }, 'down', false),
    ).toBeNull()
  })
})

describe('folded releases (CONTRACT §15)', () => {
  it('a feature dropped on a folded release lands in it, last in its own activity', () => {
    expect(placeName(bundle, 'fold:later')).toBe('release LATER')
    const drop = { id: 'p1', type: 'FEATURE', destination: { droppableId: 'fold:later', index: 0 } }
    expect(dropCommand(bundle, grid, drop, closedHidden)).toMatchObject({
      type: 'feature.move',
      id: 'p1',
      toMilestoneId: 'later',
      toSubWorkflowId: 'search',
      index: 1,
    })
  })

  it('a keyboard drag goes on past a folded release', () => {
    const down = moveAcrossReleases(
      grid,
      { id: 'p3', over: { droppableId: 'cell:mvp:search', index: 1 } },
      'down',
      false,
      new Set(['later']),
    )
    expect(down?.to).toEqual({ droppableId: 'cell:next:search', index: 0 })
    expect(down?.move).toMatchObject({ toMilestoneId: 'next', toSubWorkflowId: 'search' })
  })
})
