/**
 * What a GitHub answer means for the sync (CONTRACT §13). Pure: an HTTP status (null: no answer
 * came) and the answer's headers in; what kind of failure it is, until when to wait, and the code
 * a user's request is refused with out.
 */

export type FailureKind =
  'token_invalid' | 'missing' | 'rate_limited' | 'unreachable' | 'forbidden' | 'rejected'

export type SyncFailure = {
  kind: FailureKind
  message: string
  /** ms since the epoch: no call before then. */ retryAt?: number
}

/** A 403 or 429 that is GitHub's rate limit (primary or secondary): until when to wait, or null. */
export function rateLimitUntil(
  status: number,
  headers: Record<string, string | undefined>,
  now: number,
): number | null {
  if (status !== 403 && status !== 429) return null
  const retryAfter = Number(headers['retry-after'])
  if (headers['retry-after'] !== undefined && Number.isFinite(retryAfter))
    return now + Math.max(1, retryAfter) * 1000
  if (headers['x-ratelimit-remaining'] === '0') {
    const reset = Number(headers['x-ratelimit-reset'])
    if (Number.isFinite(reset)) return Math.max(now + 1000, reset * 1000)
  }
  // A 429 without either header: GitHub's advice is to wait at least a minute.
  return status === 429 ? now + 60_000 : null
}

export function classifyFailure(
  status: number | null,
  headers: Record<string, string | undefined>,
  message: string,
  now: number,
): SyncFailure {
  if (status === null || status >= 500)
    return { kind: 'unreachable', message: message || 'GitHub did not answer.' }
  const until = rateLimitUntil(status, headers, now)
  if (until !== null)
    return { kind: 'rate_limited', message: message || 'GitHub rate limit reached.', retryAt: until }
  if (status === 401) return { kind: 'token_invalid', message }
  if (status === 404 || status === 410) return { kind: 'missing', message }
  if (status === 403) return { kind: 'forbidden', message }
  return { kind: 'rejected', message }
}

/** The refusal a user's push, sync or import gets for a failure: status, code, text. */
export function refusalOf(
  failure: SyncFailure,
  now: number,
): { status: number; code: string; message: string; retryAfter?: number } {
  switch (failure.kind) {
    case 'token_invalid':
      return {
        status: 409,
        code: 'github_token_invalid',
        message: `GitHub refused the token: ${failure.message}`,
      }
    case 'missing':
      return {
        status: 409,
        code: 'github_repository_missing',
        message: `GitHub does not find the repository or issue: ${failure.message}`,
      }
    case 'rate_limited':
      return {
        status: 503,
        code: 'github_rate_limited',
        message: 'GitHub rate limit reached; try again later.',
        retryAfter: Math.max(1, Math.ceil(((failure.retryAt ?? now) - now) / 1000)),
      }
    case 'unreachable':
      return {
        status: 502,
        code: 'github_unreachable',
        message: `GitHub could not be reached: ${failure.message}`,
      }
    case 'forbidden':
      return { status: 409, code: 'github_permission_missing', message: `GitHub refused: ${failure.message}` }
    case 'rejected':
      return { status: 409, code: 'github_rejected', message: `GitHub refused: ${failure.message}` }
  }
}

/** The link's status after a failure (`ok` when the failure says nothing about the link). */
export function statusOfFailure(
  kind: FailureKind,
): 'token_invalid' | 'repository_missing' | 'rate_limited' | 'unreachable' | null {
  if (kind === 'token_invalid') return 'token_invalid'
  if (kind === 'rate_limited') return 'rate_limited'
  if (kind === 'unreachable') return 'unreachable'
  return null
}

/** Back-off for pushes that failed on the network or a 5xx: about 2 s, 10 s, 1 min, 5 min, then every 15 min. */
export function pushRetryDelayMs(attempt: number): number {
  const steps = [2_000, 10_000, 60_000, 300_000]
  return attempt <= steps.length ? steps[attempt - 1] : 900_000
}
