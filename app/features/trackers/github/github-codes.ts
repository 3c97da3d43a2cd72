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
