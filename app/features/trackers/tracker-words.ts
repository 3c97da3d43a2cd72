// What the board says of trackers: no zod here, so that the board's script stays within its budget.

export const TRACKER_PROVIDERS = ['github', 'gitlab', 'jira'] as const
export type TrackerProviderName = (typeof TRACKER_PROVIDERS)[number]

/** How the board and the activity lines name a tracker. */
export const PROVIDER_LABEL: Record<TrackerProviderName, string> = {
  github: 'GitHub',
  gitlab: 'GitLab',
  jira: 'Jira',
}

/** What a project is linked to, in Activity lines: `GitHub repository` (CONTRACT §13), `GitLab tracker project`. */
export const linkedNoun = (provider: TrackerProviderName) =>
  provider === 'github' ? 'GitHub repository' : `${PROVIDER_LABEL[provider]} tracker project`

/** `{Provider} sync stopped: the token was refused.` (CONTRACT §14). */
export const trackerStoppedText = (provider: TrackerProviderName) =>
  `${PROVIDER_LABEL[provider]} sync stopped: the token was refused.`

/** `The {Provider} token expires on {date}.` (CONTRACT §14), the date as YYYY-MM-DD. */
export const tokenExpiringText = (provider: TrackerProviderName, expiresAt: string) =>
  `The ${PROVIDER_LABEL[provider]} token expires on ${expiresAt.slice(0, 10)}.`

/** Within this many days of its expiry a token is `token_expiring`. */
export const EXPIRY_WARNING_DAYS = 14

export function expiresSoon(tokenExpiresAt: string | null, now = Date.now()) {
  if (!tokenExpiresAt) return false
  return Date.parse(tokenExpiresAt) - now <= EXPIRY_WARNING_DAYS * 86_400_000
}
