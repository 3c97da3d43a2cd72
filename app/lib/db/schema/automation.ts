// API tokens and outgoing webhooks (CONTRACT §10).
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core'
import { now } from './columns'
import { members, workspaceId, workspaces } from './workspaces'

/**
 * Personal API tokens (CONTRACT §10): a member's key to one workspace's /v1 API. Only the
 * secret's SHA-256 is kept. Deleting the member (removed, left, account deleted) revokes them.
 */
export const apiTokens = sqliteTable(
  'api_tokens',
  {
    id: text('id').primaryKey(),
    secretHash: text('secret_hash').notNull().unique(),
    prefix: text('prefix').notNull(),
    name: text('name').notNull(),
    scope: text('scope', { enum: ['read', 'write'] }).notNull(),
    workspaceId: workspaceId(),
    memberId: text('member_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    createdAt: text('created_at').notNull().default(now),
    expiresAt: text('expires_at'),
    lastUsedAt: text('last_used_at'),
  },
  (t) => [index('api_tokens_member_idx').on(t.memberId), index('api_tokens_workspace_idx').on(t.workspaceId)],
)

// Webhooks (CONTRACT §10, ADR 22); re-exported by schema.ts, which drizzle-kit reads.

/**
 * Webhook endpoints (CONTRACT §10): per workspace, or one project of it (`projectId`; no foreign
 * key, so a project's delete still reaches its endpoint). `events` is a JSON array of event types.
 * The secret (`whsec_…`) is kept sealed (AES-256-GCM, key derived from SESSION_SECRET, the
 * endpoint's id bound in): the server opens it to sign (app/lib/sealed-secret.server.ts).
 */
export const webhooks = sqliteTable(
  'webhooks',
  {
    id: text('id').primaryKey(),
    workspaceId: text('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    projectId: text('project_id'),
    url: text('url').notNull(),
    secretCipher: text('secret_cipher').notNull(),
    events: text('events').notNull(),
    createdAt: text('created_at').notNull(),
    createdBy: text('created_by').notNull(),
    disabledAt: text('disabled_at'),
  },
  (t) => [index('webhooks_workspace_idx').on(t.workspaceId)],
)

/**
 * The webhook outbox and its delivery log: one row per message to one endpoint, appended in the
 * transaction of the change it tells about (ADR 10), sent in `seq` order per endpoint.
 * `state`: pending, delivered, or abandoned (the endpoint was disabled or deleted first).
 */
export const webhookDeliveries = sqliteTable(
  'webhook_deliveries',
  {
    seq: integer('seq').primaryKey({ autoIncrement: true }),
    /** The `webhook-id` header: the same for every attempt. */
    id: text('id').notNull().unique(),
    webhookId: text('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    event: text('event').notNull(),
    payload: text('payload').notNull(),
    createdAt: text('created_at').notNull(),
    state: text('state', { enum: ['pending', 'delivered', 'abandoned'] })
      .notNull()
      .default('pending'),
    attempt: integer('attempt').notNull().default(0),
    nextAt: text('next_at').notNull(),
    /** When the first failed attempt of this message was made (the 24-hour window runs from it). */
    failingSince: text('failing_since'),
    /** The last attempt: when, its HTTP status (null: none came), how long, what went wrong. */
    at: text('at'),
    status: integer('status'),
    ms: integer('ms'),
    error: text('error'),
  },
  (t) => [index('webhook_deliveries_endpoint_idx').on(t.webhookId, t.state, t.seq)],
)
