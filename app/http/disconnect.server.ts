import type { AppLoadContext } from 'react-router'

/**
 * A signal that aborts when the caller's connection is gone, so a long call made for it (the
 * assistant's model) stops instead of running to its timeout for nobody. /v1 requests carry no
 * abort signal of their own (server/remix-handler.ts).
 */
export function disconnectSignal(context: Partial<Pick<AppLoadContext, 'onDisconnect'>>): AbortSignal {
  const controller = new AbortController()
  context.onDisconnect?.(() => controller.abort(new DOMException('The client went away.', 'AbortError')))
  return controller.signal
}

/** Runs `call`; if it failed because the caller left, answers 499 (nginx's "client closed request") unlogged. */
export async function whileConnected<T>(signal: AbortSignal, call: () => Promise<T>): Promise<T | Response> {
  try {
    return await call()
  } catch (error) {
    if (signal.aborted) return new Response(null, { status: 499 })
    throw error
  }
}
