import { describe, expect, it } from 'vitest'
import { createCardFilterStore } from '~/features/board/ui/card-filter-store'

/** A stand-in for a feature tile (100 %: not `tiny`): its link as written (with the board's query) and classes, no title text (no highlight API in Node). */
function fakeTile(id: string) {
  const classes = new Set<string>()
  let changes = 0
  const element = {
    getAttribute: (name: string) => (name === 'href' ? `/ws/projects/p/f/${id}?q=pay` : null),
    classList: {
      toggle: (name: string, on: boolean) => {
        if (classes.has(name) !== on) changes++
        if (on) classes.add(name)
        else classes.delete(name)
        return on
      },
      contains: (name: string) => classes.has(name),
    },
    querySelector: () => null,
  }
  return { element, hidden: () => classes.has('filtered-out'), changes: () => changes }
}

function fakeBoard(ids: string[]) {
  const tiles = Object.fromEntries(ids.map((id) => [id, fakeTile(id)]))
  const root = {
    querySelectorAll: () => Object.values(tiles).map((t) => t.element),
  } as unknown as HTMLElement
  return { root, tiles }
}

describe('createCardFilterStore', () => {
  it('applies the changed states to the tiles, found by their links', () => {
    const { root, tiles } = fakeBoard(['a', 'b', 'c'])
    const store = createCardFilterStore(new Map([['a', { hidden: true, marks: undefined }]]))
    store.applyAll(root)
    expect(tiles.a.hidden()).toBe(true)
    store.update(
      new Map([
        ['a', { hidden: true, marks: undefined }],
        ['b', { hidden: true, marks: undefined }],
        ['c', { hidden: false, marks: '0-2' }],
      ]),
      root,
    )
    expect([tiles.a.hidden(), tiles.b.hidden(), tiles.c.hidden()]).toEqual([true, true, false])
    expect(store.get('c')).toEqual({ hidden: false, marks: '0-2' })
    expect(store.get('d')).toEqual({ hidden: false, marks: undefined })

    store.update(new Map(), root) // everything shows again
    expect([tiles.a.hidden(), tiles.b.hidden(), tiles.c.hidden()]).toEqual([false, false, false])
    expect([tiles.a.changes(), tiles.b.changes()]).toEqual([2, 2])
  })

  it('keeps the states while the board is not in the page yet', () => {
    const store = createCardFilterStore(new Map())
    store.update(new Map([['a', { hidden: true, marks: undefined }]]), null)
    expect(store.get('a').hidden).toBe(true)
  })
})
