import { z } from 'zod'
import { linkRepositorySchema } from '~/features/github'
import { GITLAB_PROJECT_PATTERN } from './gitlab/gitlab-mapping'
import { JIRA_PROJECT_KEY_PATTERN } from './jira/jira-mapping'

/**
 * The request body of `PUT /v1/projects/{id}/tracker` (CONTRACT §14), one shape per provider,
 * shared by the route, the board's Tracker dialog and the OpenAPI document.
 */
const url = z
  .string({ error: 'Enter the address of the tracker.' })
  .trim()
  .url('Enter the address of the tracker.')
  .max(500)
const token = z
  .string({ error: 'Enter the token.' })
  .trim()
  .min(1, 'Enter the token.')
  .max(1000, 'Maximum 1000 characters.')

export const linkTrackerSchema = z.discriminatedUnion(
  'provider',
  [
    z.object({
      provider: z.literal('gitlab'),
      url,
      project: z
        .string({ error: 'Enter the project as group/name.' })
        .trim()
        .regex(GITLAB_PROJECT_PATTERN, 'Enter the project as group/name.'),
      token,
    }),
    z.object({
      provider: z.literal('jira'),
      url,
      project: z
        .string({ error: 'Enter the project key, such as SHOP.' })
        .trim()
        .regex(JIRA_PROJECT_KEY_PATTERN, 'Enter the project key, such as SHOP.'),
      email: z.string({ error: 'Enter the e-mail of the Atlassian account.' }).trim().email().max(320),
      token,
    }),
    linkRepositorySchema.extend({ provider: z.literal('github') }),
  ],
  { error: 'provider: choose github, gitlab or jira.' },
)
export type LinkTrackerInput = z.output<typeof linkTrackerSchema>

export const TRACKER_PROVIDERS = ['github', 'gitlab', 'jira'] as const
export type TrackerProviderName = (typeof TRACKER_PROVIDERS)[number]

/** How the board and the activity lines name a tracker. */
export const PROVIDER_LABEL: Record<TrackerProviderName, string> = {
  github: 'GitHub',
  gitlab: 'GitLab',
  jira: 'Jira',
}

/** Every refused field of the link is `validation_failed` naming it (CONTRACT §14). */
export const TRACKER_FIELD_CODES = {
  provider: 'validation_failed',
  url: 'validation_failed',
  project: 'validation_failed',
  repository: 'validation_failed',
  email: 'validation_failed',
  token: 'validation_failed',
}

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
