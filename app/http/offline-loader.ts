/**
 * Keeps a page on screen when a reload of its data cannot reach the server (offline, server
 * restarting): the last data the page showed stands in, and the page catches up later (the live
 * stream replays what it missed). Browser-only state; the server never calls these.
 */
const lastShown = new Map<string, unknown>()

/**
 * Remembers what the page under `key` shows now; nothing on the server, where a module's state
 * outlives the request and would keep every page ever rendered (issue 34: a map text per board).
 */
export function rememberShown(key: string, data: unknown) {
  if (typeof document === 'undefined') return
  lastShown.set(key, data)
}

/** What the page under `key` last showed, if it has shown anything in this browser tab. */
export const lastShownOf = (key: string): unknown => lastShown.get(key)

/** A failed fetch: the browser's TypeError, as opposed to an answer from the server. */
export const isNetworkFailure = (error: unknown) => error instanceof TypeError

/** The server's data for `key`, or, when the server cannot be reached, what the page last showed. */
export async function loadOrKeepShown<T>(key: string, serverLoader: () => Promise<T>): Promise<T> {
  try {
    return await serverLoader()
  } catch (error) {
    if (isNetworkFailure(error) && lastShown.has(key)) return lastShown.get(key) as T
    throw error
  }
}
