import { describe, expect, it } from 'vitest'
import { createNearWatcher } from '~/features/board/ui/near-viewport'

describe('the near-viewport watcher during a drag', () => {
  it('holds new drop targets back until the drop, then lets each waiting group in once', () => {
    const watcher = createNearWatcher()
    const calls: string[] = []
    expect(watcher.dragging()).toBe(false)
    watcher.setDragging(true)
    expect(watcher.dragging()).toBe(true)
    watcher.afterDrag(() => calls.push('a'))
    const cancel = watcher.afterDrag(() => calls.push('b'))
    cancel() // a group that left the page before the drop
    expect(calls).toEqual([])
    watcher.setDragging(false)
    expect(calls).toEqual(['a'])
    watcher.setDragging(true)
    watcher.setDragging(false)
    expect(calls).toEqual(['a'])
  })
})
