import { z } from 'zod'
import 'zod-openapi'
import { importIssuesSchema, linkTrackerSchema } from '~/features/trackers'
import type { OperationSpec, PathSpecs } from './operations'
import { emptySchema, featureSchema, trackerLinkSchema } from './schemas'

/** Tracker sync on one connector: GitHub, GitLab and Jira Cloud (CONTRACT §14). */
const time = z.string().meta({ format: 'date-time' })
const uuid = z.string().meta({ format: 'uuid' })
const tag = 'Trackers'

const refusals: OperationSpec['errors'] = {
  409: '`tracker_not_linked`; the tracker refused: `tracker_token_invalid` (sync stops), `tracker_project_missing`.',
  502: '`tracker_unreachable`: a network error or a 5xx from the tracker.',
  503: '`tracker_rate_limited`: the tracker’s rate limit; `Retry-After` says when to try again.',
}

const logEntrySchema = z
  .object({
    at: time,
    direction: z.enum(['push', 'pull']),
    featureId: uuid.nullable(),
    issue: z
      .union([z.string(), z.int()])
      .nullable()
      .meta({ description: '`#12`, `SHOP-12`, or a GitHub number.' }),
    action: z.string(),
    status: z.enum(['ok', 'retrying', 'failed']),
    error: z.string().nullable().meta({ description: 'e.g. `tracker_transition_missing`.' }),
  })
  .meta({ id: 'TrackerSyncLogEntry' })

export const TRACKER_PATHS: PathSpecs = {
  '/v1/projects/{id}/tracker': {
    get: {
      tag,
      summary: "A project's tracker",
      description: 'Any member. Never the token or the webhook secret.',
      access: 'workspace',
      ok: z.object({ tracker: trackerLinkSchema.nullable() }),
    },
    put: {
      tag,
      summary: 'Link (or relink) GitHub, GitLab or Jira Cloud',
      description:
        'OWNERs and ADMINs. GitLab: a token with the `api` scope (Reporter or above). Jira: e-mail and API token (create, edit and transition issues). GitHub: as `PUT …/github`. The token is checked at once, kept encrypted and never shown again; the webhook secret is in this answer only. `url` must be `https://` unless `TRACKER_ALLOW_HTTP`, and private addresses need `TRACKER_ALLOW_PRIVATE`.',
      access: 'workspace',
      write: true,
      body: linkTrackerSchema,
      ok: z.object({
        tracker: trackerLinkSchema,
        webhookSecret: z.string().meta({
          description:
            'Give it to the tracker with the webhook URL `/v1/tracker/webhook/{projectId}` (GitLab: secret token; Jira: admin webhook secret).',
        }),
      }),
      errors: {
        400: '`validation_failed` (naming the field), `tracker_url_refused`, `tracker_token_invalid`, `tracker_project_invalid`, `tracker_permission_missing`.',
        502: '`tracker_unreachable`.',
        503: '`tracker_rate_limited`.',
      },
    },
    delete: {
      tag,
      summary: 'Unlink the tracker',
      description: 'OWNERs and ADMINs. Sync stops, the token is deleted; features keep their issues.',
      access: 'workspace',
      write: true,
      ok: z.object({ tracker: z.null() }),
      errors: { 409: '`tracker_not_linked`.' },
    },
  },
  '/v1/projects/{id}/tracker/sync': {
    post: {
      tag,
      summary: 'Sync now',
      description: 'EDITORs and up. Polls at once and re-reads every linked issue; answers when done.',
      access: 'workspace',
      write: true,
      ok: z.object({ pulled: z.int(), lastSyncAt: time.nullable() }),
      errors: refusals,
    },
  },
  '/v1/projects/{id}/tracker/import': {
    post: {
      tag,
      summary: 'Import issues into a cell',
      description:
        'EDITORs and up. One linked feature per matching issue not yet linked: one change, one undo step.',
      access: 'workspace',
      write: true,
      body: importIssuesSchema,
      ok: z.object({ imported: z.int() }),
      errors: refusals,
    },
  },
  '/v1/projects/{id}/tracker/log': {
    get: {
      tag,
      summary: 'The last 50 sync operations',
      description: 'Any member. Newest first.',
      access: 'workspace',
      ok: z.object({ items: z.array(logEntrySchema) }),
    },
  },
  '/v1/features/{id}/issue': {
    post: {
      tag,
      summary: 'Create the issue of a feature on the linked tracker',
      description: 'EDITORs and up. Answers the feature with its `issue`.',
      access: 'workspace',
      write: true,
      ok: featureSchema,
      errors: { ...refusals, 409: `\`already_linked\`; ${refusals[409]}` },
    },
  },
  '/v1/milestones/{id}/issues': {
    post: {
      tag,
      summary: 'Send a release to the tracker',
      description:
        'EDITORs and up. An issue for every OPEN feature of the release without one, in board order.',
      access: 'workspace',
      write: true,
      ok: z.object({ created: z.int(), failed: z.array(z.object({ featureId: uuid, error: z.string() })) }),
      errors: refusals,
    },
  },
  '/v1/tracker/webhook/{projectId}': {
    post: {
      tag,
      summary: "The tracker's webhook",
      description:
        'GitLab: an Issue Hook with `X-Gitlab-Token` equal to the webhook secret. Jira Cloud: an admin webhook (`jira:issue_updated`, `jira:issue_deleted`) signed `X-Hub-Signature: sha256=<HMAC-SHA256 of the body>`. GitHub: as `/v1/github/webhook/{projectId}`.',
      access: 'public',
      body: z.object({}).passthrough().meta({ description: "The tracker's event payload." }),
      ok: emptySchema,
      errors: { 401: 'The secret or signature is missing or wrong (`signature_invalid`); nothing changes.' },
    },
  },
}
