import { describe, expect, it } from 'vitest'
import { createNearWatcher } from '~/features/board/ui/near-viewport'

describe('groups becoming draggable when the page is idle', () => {
  it('lets in a few per idle moment, in the order they came near, never one that left, none during a drag', () => {
    const idle: (() => void)[] = []
    const asked: number[] = []
    const page = globalThis as unknown as { window?: unknown }
    const before = page.window
    page.window = {
      requestIdleCallback: (run: () => void, options: { timeout: number }) => {
        asked.push(options.timeout)
        idle.push(run)
        return idle.length
      },
    }
    try {
      const watcher = createNearWatcher()
      const ready: number[] = []
      const cancels = Array.from({ length: 10 }, (_, i) => watcher.whenIdle(() => ready.push(i)))
      cancels[5]() // a group that left the page first
      expect(ready).toEqual([])
      expect(idle).toHaveLength(1)
      idle.shift()!()
      expect(ready).toEqual([0, 1, 2, 3])
      idle.shift()!()
      expect(ready).toEqual([0, 1, 2, 3, 4, 6, 7, 8])
      idle.shift()!()
      expect(ready).toEqual([0, 1, 2, 3, 4, 6, 7, 8, 9])
      expect(idle).toHaveLength(0)
      // During a drag the library takes no new drop targets: a group waits for the drop.
      watcher.setDragging(true)
      watcher.whenIdle(() => ready.push(10))
      idle.shift()!()
      expect(ready).not.toContain(10)
      expect(idle).toHaveLength(0)
      watcher.setDragging(false)
      idle.shift()!()
      expect(ready.at(-1)).toBe(10)
      // However busy the page is, the browser is asked to run them within a bound.
      expect(asked.every((ms) => ms > 0 && ms <= 1000)).toBe(true)
    } finally {
      page.window = before
    }
  })
})
