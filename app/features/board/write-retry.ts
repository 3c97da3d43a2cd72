/**
 * Rules for sending a board write again after its answer was lost (app/features/board/ui/board-outbox.ts).
 * Pure: no browser, no Remix.
 */

/** The server's answer to one board write, as the board reads it. */
export type WriteOutcome =
  | { ok: true; entity?: unknown; redirectTo?: string; body?: Record<string, unknown> }
  | { ok: false; status: number; error: string; message: string }

const FIRST_RETRY_MS = 1000
const LONGEST_WAIT_MS = 15_000

/** How long to wait before attempt `attempt` (1, 2, …): doubling from 1 s, at most 15 s. Attempt 0 is at once. */
export function retryDelayMs(attempt: number): number {
  if (attempt <= 0) return 0
  return Math.min(LONGEST_WAIT_MS, FIRST_RETRY_MS * 2 ** (attempt - 1))
}

/**
 * Whether a refusal of a repeated write means the earlier attempt landed: the id a create sent is
 * taken (by that create), or what a delete, a restore or a purge takes away is already gone.
 * (An undo or redo sent again is answered by the server from its request id.)
 */
export function isSettledByRetry(command: { type: string }, outcome: WriteOutcome): boolean {
  if (outcome.ok) return true
  const action = command.type.split('.')[1]
  if (action === 'create')
    return outcome.status === 409 && (outcome.error === 'id_taken' || outcome.error === 'already_linked')
  if (action === 'delete' || action === 'restore' || action === 'purge') return outcome.status === 404
  return false
}
