import { singleton } from '~/lib/singleton.server'

/**
 * One sync operation per project at a time (pushes, polls, `Sync now`, an import, a webhook), so
 * pushes keep their order and a poll never reads half a push; process-wide like GitHub's.
 */
const locks = () => singleton('tracker-locks', () => new Map<string, Promise<unknown>>())

export function withTrackerLock<T>(projectId: string, run: () => Promise<T>): Promise<T> {
  const map = locks()
  const before = map.get(projectId) ?? Promise.resolve()
  const mine = before.then(run, run)
  const settled = mine.then(
    () => undefined,
    () => undefined,
  )
  map.set(projectId, settled)
  void settled.then(() => {
    if (map.get(projectId) === settled) map.delete(projectId)
  })
  return mine
}
