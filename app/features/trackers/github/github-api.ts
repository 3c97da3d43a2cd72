import { z } from 'zod'
import { uuidSchema } from '~/lib/ids'
import { REPOSITORY_PATTERN } from './github-mapping'

/**
 * The request bodies of the GitHub routes (CONTRACT §13), shared by the routes, the board's
 * GitHub dialog and the OpenAPI document.
 */
export const linkRepositorySchema = z.object({
  repository: z
    .string({ error: 'Enter the repository as owner/name.' })
    .trim()
    .regex(REPOSITORY_PATTERN, 'Enter the repository as owner/name.'),
  token: z
    .string({ error: 'Enter a fine-grained personal access token.' })
    .trim()
    .min(1, 'Enter a fine-grained personal access token.')
    .max(1000, 'Maximum 1000 characters.'),
})

export const importIssuesSchema = z.object({
  milestoneId: uuidSchema,
  subWorkflowId: uuidSchema,
  labels: z.array(z.string().trim().min(1).max(100)).max(20).optional(),
  state: z.enum(['open', 'all']).optional(),
})

/** The refusal codes of the link's fields. */
export const LINK_FIELD_CODES = { repository: 'github_repository_invalid', token: 'github_token_invalid' }
