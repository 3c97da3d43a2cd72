import crypto from 'node:crypto'
import { and, desc, eq } from 'drizzle-orm'
import type Database from 'better-sqlite3'
import { getDb } from '~/lib/db/db.server'
import { projects, webhookDeliveries, webhooks } from '~/lib/db/schema'
import { authorJson } from '~/features/map/change-events'
import type { ChangeListener } from '~/features/map/listeners.server'
import { refuse } from '~/lib/errors'
import { can } from '~/features/map/permissions'
import {
  checkUrlForm,
  DELIVERY_LOG_SIZE,
  endpointWants,
  eventTypeOf,
  payloadJson,
  SECRET_PREFIX,
  type CreateWebhookInput,
  type WebhookEvent,
} from './webhooks'
import { getEnv } from '~/lib/env.server'
import { singleton } from '~/lib/singleton.server'
import { isPrivateAddress, resolveHost } from './webhook-address.server'
import { sendWebhook } from './webhook-sender.server'
import { openWebhookSecret, sealWebhookSecret } from './webhook-secret.server'
import type { WorkspaceContext } from '~/features/workspaces/index.server'

type WebhookRow = typeof webhooks.$inferSelect
type DeliveryRow = typeof webhookDeliveries.$inferSelect

/** An endpoint as the API shows it: never its secret. */
export function publicWebhook(row: WebhookRow) {
  return {
    id: row.id,
    url: row.url,
    projectId: row.projectId,
    events: JSON.parse(row.events) as WebhookEvent[],
    createdAt: row.createdAt,
    disabledAt: row.disabledAt,
  }
}
export type PublicWebhook = ReturnType<typeof publicWebhook>

/** One message of the delivery log: its last attempt (status null: no answer, or none yet). */
export function publicDelivery(row: DeliveryRow) {
  return {
    id: row.id,
    event: row.event,
    at: row.at ?? row.createdAt,
    status: row.status,
    ms: row.ms,
    error: row.error,
    attempt: row.attempt,
    state: row.state === 'abandoned' ? ('failed' as const) : row.state,
  }
}
export type PublicDelivery = ReturnType<typeof publicDelivery>

function assertManages(ctx: WorkspaceContext) {
  if (!can(ctx, 'manageWebhooks'))
    throw refuse.forbidden('Only owners and admins manage the webhooks of a workspace.', 'level_too_low')
}

/** Refuses a URL whose form or address a webhook may not have (CONTRACT §10): 400 url_invalid / url_not_allowed. */
export async function assertUrlAllowed(text: string) {
  const env = getEnv()
  const form = checkUrlForm(text, env.WEBHOOKS_ALLOW_HTTP)
  if (!form.ok) throw refuse.invalid(form.code, form.message, 'url')
  if (env.WEBHOOKS_ALLOW_PRIVATE) return form.url
  let addresses
  try {
    addresses = await resolveHost(form.url.hostname)
  } catch {
    throw refuse.invalid('url_invalid', 'The host name does not resolve.', 'url')
  }
  if (addresses.length === 0 || addresses.some((a) => isPrivateAddress(a.address)))
    throw refuse.invalid(
      'url_not_allowed',
      'The URL points to a private, loopback or link-local address.',
      'url',
    )
  return form.url
}

/** Registers an endpoint; its secret is in this answer only. */
export async function createWebhook(ctx: WorkspaceContext, input: CreateWebhookInput, now = new Date()) {
  assertManages(ctx)
  const url = await assertUrlAllowed(input.url)
  if (input.projectId) {
    const project = getDb()
      .select({ id: projects.id })
      .from(projects)
      .where(and(eq(projects.id, input.projectId), eq(projects.workspaceId, ctx.workspace.id)))
      .get()
    if (!project) throw refuse.notFound('Project not found.', 'project_not_found')
  }
  const secret = SECRET_PREFIX + crypto.randomBytes(32).toString('base64')
  const id = crypto.randomUUID()
  const row: WebhookRow = {
    id,
    workspaceId: ctx.workspace.id,
    projectId: input.projectId,
    url: url.href,
    secretCipher: sealWebhookSecret(secret, id),
    events: JSON.stringify(input.events),
    createdAt: now.toISOString(),
    createdBy: ctx.member.id,
    disabledAt: null,
  }
  getDb().insert(webhooks).values(row).run()
  forgetEndpoints()
  return { webhook: publicWebhook(row), secret }
}

export function listWebhooks(ctx: WorkspaceContext): PublicWebhook[] {
  assertManages(ctx)
  return getDb()
    .select()
    .from(webhooks)
    .where(eq(webhooks.workspaceId, ctx.workspace.id))
    .orderBy(webhooks.createdAt)
    .all()
    .map(publicWebhook)
}

function findWebhook(ctx: WorkspaceContext, id: string): WebhookRow {
  assertManages(ctx)
  const row = getDb()
    .select()
    .from(webhooks)
    .where(and(eq(webhooks.id, id), eq(webhooks.workspaceId, ctx.workspace.id)))
    .get()
  if (!row) throw refuse.notFound('Webhook not found.', 'webhook_not_found')
  return row
}

/** Deletes an endpoint with its outbox and log. */
export function deleteWebhook(ctx: WorkspaceContext, id: string) {
  findWebhook(ctx, id)
  getDb().delete(webhooks).where(eq(webhooks.id, id)).run()
  forgetEndpoints()
}

/** The endpoint's last 50 messages, newest first. */
export function listDeliveries(ctx: WorkspaceContext, id: string): PublicDelivery[] {
  findWebhook(ctx, id)
  return getDb()
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.webhookId, id))
    .orderBy(desc(webhookDeliveries.seq))
    .limit(DELIVERY_LOG_SIZE)
    .all()
    .map(publicDelivery)
}

export const newMessageId = () => `msg_${crypto.randomUUID().replaceAll('-', '')}`

/**
 * Sends a `ping` now, outside the queue (it neither waits for nor holds back the changes), and
 * logs it as one delivery of the endpoint, also when the endpoint is disabled.
 */
export async function sendTestPing(
  ctx: WorkspaceContext,
  id: string,
  now = new Date(),
): Promise<PublicDelivery> {
  const endpoint = findWebhook(ctx, id)
  const at = now.toISOString()
  const event = JSON.stringify({
    version: null,
    at,
    by: authorJson({ memberId: ctx.member.id, name: ctx.account.name, via: ctx.via }),
    changes: [],
    summary: 'Test delivery from Storymap.',
  })
  const payload = payloadJson('ping', ctx.workspace.id, endpoint.projectId, event)
  const messageId = newMessageId()
  const env = getEnv()
  const attempt = await sendWebhook(
    {
      url: endpoint.url,
      secret: openWebhookSecret(endpoint.secretCipher, endpoint.id),
      id: messageId,
      payload,
    },
    { allowHttp: env.WEBHOOKS_ALLOW_HTTP, allowPrivate: env.WEBHOOKS_ALLOW_PRIVATE, now },
  )
  const ok = attempt.status !== null && attempt.status >= 200 && attempt.status < 300
  const row = getDb()
    .insert(webhookDeliveries)
    .values({
      id: messageId,
      webhookId: endpoint.id,
      event: 'ping',
      payload,
      createdAt: at,
      state: ok ? 'delivered' : 'abandoned',
      attempt: 1,
      nextAt: at,
      at,
      status: attempt.status,
      ms: attempt.ms,
      error: attempt.error,
    })
    .returning()
    .get()
  return publicDelivery(row)
}

// ---- The outbox, filled inside the change's own transaction (ADR 10) ----

type Endpoint = { id: string; projectId: string | null; events: string[]; disabledAt: string | null }
/**
 * Shared by the server's bundle (the worker) and the Remix build (the writes): one process, two
 * copies of this module, so the state lives in a singleton.
 */
const shared = () =>
  singleton('webhooks', () => ({
    endpoints: undefined as Map<string, Endpoint[]> | undefined,
    onQueued: undefined as (() => void) | undefined,
    queuedInTransaction: false,
  }))

/** The cache of endpoints per workspace is dropped whenever one is added, deleted or disabled. */
export function forgetEndpoints() {
  shared().endpoints = undefined
}

function endpointsOf(client: Database.Database, workspaceId: string): Endpoint[] {
  const state = shared()
  if (!state.endpoints) {
    const endpointCache = new Map<string, Endpoint[]>()
    state.endpoints = endpointCache
    const rows = client
      .prepare(
        'select id, workspace_id as workspaceId, project_id as projectId, events, disabled_at as disabledAt from webhooks where disabled_at is null',
      )
      .all() as (Omit<Endpoint, 'events'> & { workspaceId: string; events: string })[]
    for (const row of rows) {
      const list = endpointCache.get(row.workspaceId) ?? []
      list.push({ ...row, events: JSON.parse(row.events) })
      endpointCache.set(row.workspaceId, list)
    }
  }
  return state.endpoints.get(workspaceId) ?? []
}

const insertStatements = new WeakMap<Database.Database, Database.Statement>()
/** The worker's wake-up, called after a transaction queued messages. */
export function setQueuedListener(listener: (() => void) | undefined) {
  shared().onQueued = listener
}

/**
 * For every change appended, inside the write's transaction: one
 * outbox row per endpoint that wants it. Costs one map look-up when the workspace has none.
 */
export function queueWebhooks(
  client: Database.Database,
  change: {
    workspaceId: string
    projectId: string
    version: number
    at: string
    kinds: string[]
    event: string
  },
) {
  const endpoints = endpointsOf(client, change.workspaceId)
  if (endpoints.length === 0) return
  const type = eventTypeOf(change.kinds)
  const wanting = endpoints.filter((e) => endpointWants(e, change.projectId, type))
  if (wanting.length === 0) return
  let insert = insertStatements.get(client)
  if (!insert) {
    // Through the endpoint's row, so a stale cache can never fail the user's write.
    insert = client.prepare(
      `insert into webhook_deliveries (id, webhook_id, event, payload, created_at, next_at)
       select ?, id, ?, ?, ?, ? from webhooks where id = ? and disabled_at is null`,
    )
    insertStatements.set(client, insert)
  }
  const payload = payloadJson(type, change.workspaceId, change.projectId, change.event)
  for (const endpoint of wanting) insert.run(newMessageId(), type, payload, change.at, change.at, endpoint.id)
  shared().queuedInTransaction = true
}

/** After the write's transaction: wakes the worker if it queued anything. */
export function afterCommit() {
  const state = shared()
  if (!state.queuedInTransaction) return
  state.queuedInTransaction = false
  state.onQueued?.()
}

/** Outgoing webhooks follow every change to a map (CONTRACT §10; registered at start). */
export const webhookFollower: ChangeListener = {
  name: 'webhooks',
  inTransaction: (change, { by, log }) => {
    const kinds = change.notice ? [log.notice?.kind ?? 'project'] : change.entries.map((e) => e.kind)
    queueWebhooks(getDb().$client, {
      workspaceId: by.workspaceId,
      projectId: change.projectId,
      version: change.version,
      at: by.at,
      kinds,
      event: change.event,
    })
  },
  afterCommit,
}
