/**
 * A background worker's wake-up: however often it is called before the next turn of the event
 * loop, `tick` runs once then (a burst of writes wakes an outbox worker once). Nothing after `stopped()`.
 */
export function coalescedWake(tick: () => void, stopped: () => boolean): () => void {
  let scheduled = false
  return () => {
    if (stopped() || scheduled) return
    scheduled = true
    setImmediate(() => {
      scheduled = false
      tick()
    })
  }
}
