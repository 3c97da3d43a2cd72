// What the board says about a project's GitHub link. Kept apart from github-api.ts, whose zod
// schemas would otherwise come along into the board's JavaScript (25 KB gzip).

/** What the board shows when the link's token was refused (CONTRACT §13). */
export const TOKEN_REFUSED_TEXT = 'GitHub sync stopped: the token was refused.'

/** How each link status reads in the GitHub dialog. */
export const STATUS_TEXT: Record<string, string> = {
  ok: 'Syncing',
  token_invalid: TOKEN_REFUSED_TEXT,
  repository_missing: 'GitHub does not find the repository.',
  rate_limited: 'Waiting for GitHub’s rate limit; sync resumes by itself.',
  unreachable: 'GitHub cannot be reached; retrying.',
}
