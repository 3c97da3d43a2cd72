import { z } from 'zod'
import { linkRepositorySchema } from './github/github-api'
import { GITLAB_PROJECT_PATTERN } from './gitlab/gitlab-mapping'
import { JIRA_PROJECT_KEY_PATTERN } from './jira/jira-mapping'

export * from './tracker-words'

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

/** Every refused field of the link is `validation_failed` naming it (CONTRACT §14). */
export const TRACKER_FIELD_CODES = {
  provider: 'validation_failed',
  url: 'validation_failed',
  project: 'validation_failed',
  repository: 'validation_failed',
  email: 'validation_failed',
  token: 'validation_failed',
}
