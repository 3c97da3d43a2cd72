/**
 * Which map version each open board shows while its live stream is up (CONTRACT §6), for whoever
 * must wait until an edit has come back by the stream (own-edits.ts). Browser state only.
 */
type Waiter = { projectId: string; version: number; done: (reached: boolean) => void }

const shownVersion = new Map<string, number>()
const waiters = new Set<Waiter>()

/** The board of `projectId` shows `version` with its stream live; null: its stream is down or the board closed. */
export function setLiveVersion(projectId: string, version: number | null) {
  if (version === null) shownVersion.delete(projectId)
  else shownVersion.set(projectId, version)
  for (const waiter of [...waiters]) {
    if (waiter.projectId !== projectId) continue
    if (version === null) waiter.done(false)
    else if (version >= waiter.version) waiter.done(true)
  }
}

/**
 * Resolves true once the live board of `projectId` shows `version` or later; false at once when
 * it has no live stream, and false when the stream goes down, `timeoutMs` pass or `signal` aborts.
 */
export function liveVersionReached(
  projectId: string,
  version: number,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<boolean> {
  const shown = shownVersion.get(projectId)
  if (shown === undefined || signal?.aborted) return Promise.resolve(false)
  if (shown >= version) return Promise.resolve(true)
  return new Promise((resolve) => {
    const waiter: Waiter = {
      projectId,
      version,
      done: (reached) => {
        waiters.delete(waiter)
        clearTimeout(timer)
        signal?.removeEventListener('abort', abort)
        resolve(reached)
      },
    }
    const abort = () => waiter.done(false)
    const timer = setTimeout(abort, timeoutMs)
    signal?.addEventListener('abort', abort)
    waiters.add(waiter)
  })
}
