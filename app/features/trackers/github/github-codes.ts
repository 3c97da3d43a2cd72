import type { SyncFailure } from './github-mapping'

/**
 * §13's names for what the connector answers (CONTRACT §13, §14): GitHub's routes refuse with
 * `github_*` codes where the generic routes say `tracker_*`, and name the repository where they
 * name the project. Pure.
 */
export const GITHUB_CODES: Record<string, string> = {
  tracker_token_invalid: 'github_token_invalid',
  tracker_project_invalid: 'github_repository_invalid',
  tracker_permission_missing: 'github_permission_missing',
  tracker_unreachable: 'github_unreachable',
  tracker_project_missing: 'github_repository_missing',
  tracker_rate_limited: 'github_rate_limited',
  tracker_not_linked: 'github_not_linked',
  tracker_rejected: 'github_rejected',
}

export const githubCode = (code: string) => GITHUB_CODES[code] ?? code

/** A refusal's text as §13 words it: GitHub, not "the tracker"; the repository, not the project. */
export const githubText = (message: string) =>
  message
    .replace(/^The tracker\b/, 'GitHub')
    .replace('This project is not linked to a tracker.', 'This project is not linked to a GitHub repository.')
    .replace('this project:', 'this repository:')
    .replace('the project:', 'the repository or issue:')

/** The refusal a user's push, sync or import gets for a failure of GitHub's: status, code, text. */
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
    case 'permission_missing':
      return { status: 409, code: 'github_permission_missing', message: `GitHub refused: ${failure.message}` }
    case 'rejected':
      return { status: 409, code: 'github_rejected', message: `GitHub refused: ${failure.message}` }
  }
}
