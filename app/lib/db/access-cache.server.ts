import { LRUCache } from 'lru-cache'
import { getDb } from './db.server'
import { accessWritesMark } from './access-writes.server'

type Kept = { mark: string; value: unknown }

/**
 * Rows read from the tables that decide who may do what (a session with its account, a member's
 * workspace with its plan), kept per thread and per name while no write may have changed them:
 * every request checks its session and membership, and on the API's busy path those two reads
 * were the main thread's largest share after the writes themselves (issue 49). The mark
 * (access-writes.server.ts) changes on any counted write of this connection and on any commit of
 * another, so a log-out, a level changed or a plan ended is seen by the very next request.
 * Nothing read inside a transaction is kept: rows it wrote and then rolled back would be kept
 * under the mark that stands after the rollback.
 */
const caches = new Map<string, LRUCache<string, Kept>>()

export function accessCached<T>(name: string, key: string, read: () => T): T {
  const client = getDb().$client
  if (client.inTransaction) return read()
  let cache = caches.get(name)
  if (!cache) caches.set(name, (cache = new LRUCache<string, Kept>({ max: 20_000 })))
  const mark = accessWritesMark()
  const kept = cache.get(key)
  if (kept && kept.mark === mark) return kept.value as T
  const value = read()
  cache.set(key, { mark, value: deepFreeze(value) })
  return value
}

/** Replaces a kept row after a write the marks do not count (a session's expiry pushed later). */
export function keepAccessRow(name: string, key: string, value: unknown) {
  const cache = caches.get(name)
  if (cache && !getDb().$client.inTransaction)
    cache.set(key, { mark: accessWritesMark(), value: deepFreeze(value) })
}

/** Kept rows are shared by every request that reads them: nobody may change one. */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const inner of Object.values(value)) deepFreeze(inner)
  }
  return value
}
