import { z } from 'zod'
import 'zod-openapi'
import { importIssuesSchema, linkRepositorySchema } from '~/features/trackers'
import type { OperationSpec, PathSpecs } from './operations'
import { emptySchema, featureSchema, githubLinkSchema } from './schemas'

/** GitHub Issues sync (CONTRACT §13). */
const time = z.string().meta({ format: 'date-time' })
const uuid = z.string().meta({ format: 'uuid' })
const tag = 'GitHub'

const githubRefusals: OperationSpec['errors'] = {
  409: '`github_not_linked`; GitHub refused: `github_token_invalid` (401 from GitHub; sync stops), `github_repository_missing` (404).',
  502: '`github_unreachable`: a network error or a 5xx from GitHub.',
  503: '`github_rate_limited`: GitHub’s rate limit; `Retry-After` says when to try again.',
}

const logEntrySchema = z
  .object({
    at: time,
    direction: z.enum(['push', 'pull']),
    featureId: uuid.nullable(),
    issue: z.int().nullable(),
    action: z.string().meta({
      description: 'What was sent or taken: `create`, `title, state`, `sync`, `missing`, `import (3)`…',
    }),
    status: z.enum(['ok', 'retrying', 'failed']),
    error: z.string().nullable(),
  })
  .meta({ id: 'GithubSyncLogEntry' })

export const GITHUB_PATHS: PathSpecs = {
  '/v1/projects/{id}/github': {
    get: {
      tag,
      summary: "A project's GitHub repository",
      description: 'Any member. Never the token or the webhook secret.',
      access: 'workspace',
      ok: z.object({ github: githubLinkSchema.nullable() }),
    },
    put: {
      tag,
      summary: 'Link (or relink) a GitHub repository',
      description:
        'OWNERs and ADMINs. The fine-grained token (Issues: read and write) is checked with GitHub at once, kept encrypted and never shown again. The webhook secret is in this answer only (a relink keeps it).',
      access: 'workspace',
      write: true,
      body: linkRepositorySchema,
      ok: z.object({
        github: githubLinkSchema,
        webhookSecret: z
          .string()
          .meta({ description: 'Give it to GitHub with the webhook URL `/v1/github/webhook/{projectId}`.' }),
        droppedPushes: z.number().int().min(0).meta({
          description:
            'Changes that were waiting to be pushed and were dropped because another repository was linked (kept when the same repository is linked again).',
        }),
      }),
      errors: {
        400: '`github_repository_invalid` (unknown or unreadable repository), `github_token_invalid` (GitHub refused the token), `github_permission_missing` (no issues write).',
        502: '`github_unreachable`.',
        503: '`github_rate_limited`: GitHub’s rate limit; `Retry-After` says when to try again.',
      },
    },
    delete: {
      tag,
      summary: 'Unlink the repository',
      description: 'OWNERs and ADMINs. Sync stops, the token is deleted; features keep their issues.',
      access: 'workspace',
      write: true,
      ok: z.object({ github: z.null() }),
      errors: { 409: '`github_not_linked`.' },
    },
  },
  '/v1/projects/{id}/github/sync': {
    post: {
      tag,
      summary: 'Sync now',
      description:
        'EDITORs and up. Reads every issue, pulls what changed on GitHub, marks missing issues; answers when done.',
      access: 'workspace',
      write: true,
      ok: z.object({ pulled: z.int(), lastSyncAt: time.nullable() }),
      errors: githubRefusals,
    },
  },
  '/v1/projects/{id}/github/import': {
    post: {
      tag,
      summary: 'Import issues into a cell',
      description:
        'EDITORs and up. One linked feature per matching issue not yet linked (pull requests are skipped), in issue-number order: one change, one undo step.',
      access: 'workspace',
      write: true,
      body: importIssuesSchema,
      ok: z.object({ imported: z.int() }),
      errors: githubRefusals,
    },
  },
  '/v1/projects/{id}/github/log': {
    get: {
      tag,
      summary: 'The last 50 sync operations',
      description: 'Any member. Newest first.',
      access: 'workspace',
      ok: z.object({ items: z.array(logEntrySchema) }),
    },
  },
  '/v1/features/{id}/github': {
    post: {
      tag,
      summary: 'Create the GitHub issue of a feature',
      description: 'EDITORs and up. Answers the feature with its `github`.',
      access: 'workspace',
      write: true,
      ok: featureSchema,
      errors: { ...githubRefusals, 409: `\`already_linked\`; ${githubRefusals[409]}` },
    },
  },
  '/v1/milestones/{id}/github': {
    post: {
      tag,
      summary: 'Send a release to GitHub',
      description:
        'EDITORs and up. An issue for every OPEN feature of the release without one, in board order.',
      access: 'workspace',
      write: true,
      ok: z.object({ created: z.int(), failed: z.array(z.object({ featureId: uuid, error: z.string() })) }),
      errors: githubRefusals,
    },
  },
  '/v1/github/webhook/{projectId}': {
    post: {
      tag,
      summary: "GitHub's issues webhook",
      description:
        'For GitHub: `issues` events (and `ping`) signed with `X-Hub-Signature-256` (HMAC-SHA256 of the body with the webhook secret).',
      access: 'public',
      body: z.object({}).passthrough().meta({ description: "GitHub's event payload." }),
      ok: emptySchema,
      errors: { 401: 'The signature is missing or wrong (`signature_invalid`); nothing changes.' },
    },
  },
}
