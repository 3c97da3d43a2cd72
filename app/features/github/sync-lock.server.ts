import { singleton } from '~/lib/singleton.server'

/**
 * One sync operation per project at a time (the worker's pushes and polls, `Sync now`, an import
 * or a webhook), so pushes keep their order and a poll never reads half a push. Process-wide: the
 * worker (server bundle) and the routes (Remix bundle) share it.
 */
const locks = () => singleton('github-locks', () => new Map<string, Promise<unknown>>())

export function withProjectLock<T>(projectId: string, run: () => Promise<T>): Promise<T> {
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

/** Whether an operation on the project is running or waiting. */
export const isProjectBusy = (projectId: string) => locks().has(projectId)
