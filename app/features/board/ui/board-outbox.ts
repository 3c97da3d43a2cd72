import type { PageCommand } from '~/features/board/page-commands'
import { isSettledByRetry, retryDelayMs, type WriteOutcome } from '~/features/board/write-retry'

export type { WriteOutcome }

/**
 * What the board shows about its writes: whether the server is reachable, whether the session
 * has ended (the server answers 401: writes wait for a log-in), and how many wait.
 */
export type OutboxState = { offline: boolean; signedOut: boolean; waiting: number }

type Environment = {
  fetch: typeof fetch
  isOnline: () => boolean
  /** Calls `listener` when the browser says the network is back; returns the unsubscribe. */
  onOnline: (listener: () => void) => () => void
  setTimeout: (fn: () => void, ms: number) => unknown
  clearTimeout: (handle: unknown) => void
}

const browser = (): Environment => ({
  fetch: (...args) => fetch(...args),
  isOnline: () => navigator.onLine,
  onOnline: (listener) => {
    window.addEventListener('online', listener)
    return () => window.removeEventListener('online', listener)
  },
  setTimeout: (fn, ms) => window.setTimeout(fn, ms),
  clearTimeout: (handle) => window.clearTimeout(handle as number),
})

/**
 * The board's writes, sent one at a time in the order they were made. A write that cannot reach
 * the server (offline, server restarting) waits and goes again, as often as it takes: ids come
 * from the client and the server upserts by them, so a repeat is safe (a create or delete that
 * had landed before its answer was lost counts as done). Meanwhile the write's fetcher stays
 * pending, so the board keeps showing it, and `state` says the board is offline.
 */
export class BoardOutbox {
  private tail: Promise<unknown> = Promise.resolve()
  private state: OutboxState = { offline: false, signedOut: false, waiting: 0 }
  private readonly listeners = new Set<() => void>()
  /** Resolved when the member has logged in again (a new one each time the session ends). */
  private signedIn: { promise: Promise<void>; resolve: () => void } | null = null
  /** Pages that offer a new log-in (the board's SessionNotice); only then does a 401 hold the writes. */
  private holders = 0

  constructor(private readonly env: Environment = browser()) {}

  getState = (): OutboxState => this.state

  subscribe = (listener: () => void) => {
    this.listeners.add(listener)
    return () => void this.listeners.delete(listener)
  }

  /** Sends `command` to `url` after every write before it has been answered. */
  send(url: string, command: PageCommand): Promise<WriteOutcome> {
    this.update({ waiting: this.state.waiting + 1 })
    const run = () => this.deliver(url, command)
    const result = this.tail.then(run, run)
    this.tail = result.catch(() => undefined)
    return result.finally(() => this.update({ waiting: this.state.waiting - 1 }))
  }

  /**
   * The session has ended (a write answered 401, or the live stream found it gone): writes wait,
   * kept in order, until `signedInAgain`. Nothing is dropped and the page does not go to the
   * log-in page, so what is typed stays (issue 43).
   */
  markSignedOut() {
    if (!this.signedIn) {
      let resolve = () => {}
      const promise = new Promise<void>((r) => (resolve = r))
      this.signedIn = { promise, resolve }
    }
    this.update({ signedOut: true })
  }

  /**
   * While the returned function has not been called, a write answered 401 waits for a log-in
   * instead of failing: the caller offers the log-in (a page without one keeps the refusal).
   */
  holdWhileSignedOut(): () => void {
    this.holders++
    let released = false
    return () => {
      if (released) return
      released = true
      this.holders--
    }
  }

  /** The member has logged in again: the waiting writes go. */
  signedInAgain() {
    const waiting = this.signedIn
    this.signedIn = null
    this.update({ signedOut: false })
    waiting?.resolve()
  }

  /** Resolves once every write sent so far has been answered. */
  idle(): Promise<void> {
    return this.tail.then(() => undefined)
  }

  private async deliver(url: string, command: PageCommand): Promise<WriteOutcome> {
    const body = JSON.stringify(command)
    // An attempt went unanswered: it may have landed, so a later refusal may be its doing.
    let answerLost = false
    for (let attempt = 0; ; attempt++) {
      if (attempt > 0 || !this.env.isOnline()) await this.pause(attempt)
      let outcome: WriteOutcome | null
      try {
        const response = await this.env.fetch(url, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
          body,
        })
        outcome = await outcomeOf(response)
      } catch {
        outcome = null // no answer: the network or the server is away
      }
      this.update({ offline: outcome === null })
      if (outcome === null) {
        answerLost = true
        continue
      }
      if (!outcome.ok && outcome.status === 401 && this.holders > 0) {
        // The session ended: the write waits for the log-in, then goes at once.
        this.markSignedOut()
        await this.signedIn?.promise
        attempt = -1
        continue
      }
      return answerLost && isSettledByRetry(command, outcome) ? { ok: true } : outcome
    }
  }

  /** Waits for the back-off (while the browser is offline, until it is back) or for the browser's `online` event. */
  private pause(attempt: number): Promise<void> {
    return new Promise((resolve) => {
      let timer: unknown
      const done = () => {
        this.env.clearTimeout(timer)
        stop()
        resolve()
      }
      const stop = this.env.onOnline(done)
      const wait = () => {
        timer = this.env.setTimeout(
          () => (this.env.isOnline() ? done() : wait()),
          retryDelayMs(Math.max(attempt, 1)),
        )
      }
      wait()
    })
  }

  private update(change: Partial<OutboxState>) {
    const next = { ...this.state, ...change }
    if (
      next.offline === this.state.offline &&
      next.signedOut === this.state.signedOut &&
      next.waiting === this.state.waiting
    )
      return
    this.state = next
    for (const listener of this.listeners) listener()
  }
}

/** A server answer as the board reads it; null when it is not the app's (a proxy's 502 while the server restarts). */
async function outcomeOf(response: Response): Promise<WriteOutcome | null> {
  const body = (await response.json().catch(() => null)) as Record<string, unknown> | null
  if (body === null || typeof body !== 'object')
    return response.status >= 502 ? null : failed(response.status)
  if (response.ok)
    return {
      ok: true,
      entity: body.entity,
      redirectTo: typeof body.redirectTo === 'string' ? body.redirectTo : undefined,
      body,
    }
  return {
    ok: false,
    status: response.status,
    error: typeof body.error === 'string' ? body.error : 'failed',
    message: typeof body.message === 'string' ? body.message : '',
  }
}

const failed = (status: number): WriteOutcome => ({ ok: false, status, error: 'failed', message: '' })

/**
 * The one outbox of the page: every write of a board or the project list leaves through it, in
 * one order (the page's commands: app/features/board/page-commands.ts).
 */
export const boardOutbox = typeof window === 'undefined' ? null : new BoardOutbox()
