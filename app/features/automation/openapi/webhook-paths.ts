import { z } from 'zod'
import 'zod-openapi'
import { createWebhookSchema, WEBHOOK_EVENTS } from '~/features/automation/webhooks'
import type { PathSpecs } from './operations'
import { emptySchema } from './schemas'

/** Webhook endpoints and their delivery log (CONTRACT §10). */
const uuid = z.string().meta({ format: 'uuid' })
const time = z.string().meta({ format: 'date-time' })

export const webhookSchema = z
  .object({
    id: uuid,
    url: z.string(),
    projectId: uuid
      .nullable()
      .meta({ description: 'Only this project’s changes; null: every project of the workspace.' }),
    events: z.array(z.enum(WEBHOOK_EVENTS)),
    createdAt: time,
    disabledAt: time
      .nullable()
      .meta({ description: 'When it was disabled after 24 hours of failed deliveries; null while active.' }),
  })
  .meta({ id: 'Webhook', description: 'A webhook endpoint; its secret is shown only when it is made.' })

export const deliverySchema = z
  .object({
    id: z.string().meta({ description: 'The `webhook-id` header: the same on every retry.' }),
    event: z.enum([...WEBHOOK_EVENTS, 'ping']),
    at: time.meta({ description: 'The last attempt, or when the message was queued if none yet.' }),
    status: z
      .number()
      .int()
      .nullable()
      .meta({ description: 'The HTTP status of the last attempt; null when none came.' }),
    ms: z.number().int().nullable(),
    error: z
      .string()
      .nullable()
      .meta({ description: 'What went wrong (at most 4 KB of the answer’s body).' }),
    attempt: z.number().int().meta({ description: 'Attempts made so far.' }),
    state: z.enum(['pending', 'delivered', 'failed']),
  })
  .meta({ id: 'WebhookDelivery' })

const ownerOrAdmin = 'Workspace OWNERs and ADMINs only.'
const urlRefusals = {
  400: '`url_invalid` (not an http(s) URL), `url_not_allowed` (http:// without `WEBHOOKS_ALLOW_HTTP`, or a private, loopback or link-local address without `WEBHOOKS_ALLOW_PRIVATE`), `events_invalid`, `project_id_invalid`.',
}

export const WEBHOOK_PATHS: PathSpecs = {
  '/v1/webhooks': {
    get: {
      tag: 'Webhooks',
      summary: "The workspace's webhook endpoints",
      description: ownerOrAdmin,
      access: 'workspace',
      ok: z.object({ webhooks: z.array(webhookSchema) }),
    },
    post: {
      tag: 'Webhooks',
      summary: 'Register a webhook endpoint',
      description: `${ownerOrAdmin} Deliveries are signed as the Standard Webhooks specification says, with the secret in this answer (shown once).`,
      access: 'workspace',
      write: true,
      body: createWebhookSchema,
      status: 201,
      ok: z.object({
        webhook: webhookSchema,
        secret: z.string().meta({ description: '`whsec_…`: verify signatures with it.' }),
      }),
      errors: urlRefusals,
    },
  },
  '/v1/webhooks/{id}': {
    delete: {
      tag: 'Webhooks',
      summary: 'Delete a webhook endpoint',
      description: ownerOrAdmin,
      access: 'workspace',
      write: true,
      ok: emptySchema,
    },
  },
  '/v1/webhooks/{id}/test': {
    post: {
      tag: 'Webhooks',
      summary: 'Send a ping now',
      description: `${ownerOrAdmin} Answers the attempt.`,
      access: 'workspace',
      write: true,
      ok: z.object({ delivery: deliverySchema }),
    },
  },
  '/v1/webhooks/{id}/deliveries': {
    get: {
      tag: 'Webhooks',
      summary: 'The last 50 deliveries',
      description: `${ownerOrAdmin} Newest first.`,
      access: 'workspace',
      ok: z.object({ deliveries: z.array(deliverySchema) }),
    },
  },
}
