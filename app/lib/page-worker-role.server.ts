// The page worker (server/page-worker.ts) renders pages on a thread of its own. It has its own
// database connection but no live streams: a change to a map made there would reach no open
// board, so the one door refuses to open in it. A symbol in the global registry, because the
// server's bundle and the app's bundle each have their own copy of this module.
const PAGE_WORKER = Symbol.for('storymap.page-worker')

export function markAsPageWorker() {
  ;(globalThis as Record<symbol, unknown>)[PAGE_WORKER] = true
}

export function isPageWorker(): boolean {
  return (globalThis as Record<symbol, unknown>)[PAGE_WORKER] === true
}
