import { getDb } from '~/lib/db/db.server'
import { DELIVERY_LOG_SIZE, failedTooLong, isSuccess, retryDelayMs } from './webhooks'
import { sendMail } from '~/lib/email.server'
import { webhookDisabledMessage } from '~/features/notifications/index.server'
import { getEnv } from '~/lib/env.server'
import { logger } from '~/lib/logger.server'
import { sendWebhook } from './webhook-sender.server'
import { openWebhookSecret } from './webhook-secret.server'
import { forgetEndpoints, setQueuedListener } from './webhook.server'
import { coalescedWake } from '~/lib/coalesced-wake'
import { levelsAllowed } from '~/features/map/permissions'

/**
 * The webhook worker (CONTRACT §10, ADR 10): in the server process, it sends each endpoint's
 * outbox in order, one message at a time. A failing message holds back the later ones to its
 * endpoint and is retried with back-off; after 24 hours of failure the endpoint is disabled and
 * the workspace's owners get an e-mail. Everything is in SQLite, so a restart picks up where it
 * stopped (at least once: a message sent just before a stop may be sent again).
 */
type Head = {
  seq: number
  id: string
  webhookId: string
  payload: string
  attempt: number
  nextAt: string
  failingSince: string | null
  url: string
  secretCipher: string
  workspaceId: string
}

const HEADS_SQL = `
  select d.seq, d.id, d.webhook_id as webhookId, d.payload, d.attempt, d.next_at as nextAt,
    d.failing_since as failingSince, w.url, w.secret_cipher as secretCipher, w.workspace_id as workspaceId
  from webhooks w
  join webhook_deliveries d on d.seq = (
    select min(x.seq) from webhook_deliveries x where x.webhook_id = w.id and x.state = 'pending')
  where w.disabled_at is null`

/** Looked at again at least this often, whatever the wake-ups say. */
const POLL_MS = 30_000

export function startWebhookWorker(): () => void {
  const env = getEnv()
  const scale = env.WEBHOOKS_RETRY_SCALE
  const inFlight = new Set<string>()
  let stopped = false
  let timer: NodeJS.Timeout | undefined

  const wake = coalescedWake(
    () => tick(),
    () => stopped,
  )

  function tick() {
    if (stopped) return
    clearTimeout(timer)
    let heads: Head[]
    try {
      heads = getDb().$client.prepare(HEADS_SQL).all() as Head[]
    } catch (err) {
      logger.error({ err }, 'webhook outbox could not be read')
      return
    }
    const now = Date.now()
    let next = now + POLL_MS
    for (const head of heads) {
      if (inFlight.has(head.webhookId)) continue
      const due = Date.parse(head.nextAt)
      if (due <= now) void deliver(head)
      else next = Math.min(next, due)
    }
    timer = setTimeout(tick, Math.max(5, next - now))
    timer.unref()
  }

  async function deliver(head: Head) {
    inFlight.add(head.webhookId)
    try {
      const attempt = await sendWebhook(
        {
          url: head.url,
          secret: openWebhookSecret(head.secretCipher, head.webhookId),
          id: head.id,
          payload: head.payload,
        },
        { allowHttp: env.WEBHOOKS_ALLOW_HTTP, allowPrivate: env.WEBHOOKS_ALLOW_PRIVATE },
      )
      if (stopped) return // the database may be closing; the message stays pending and goes after the restart
      record(head, attempt)
    } catch (err) {
      logger.error({ err, webhookId: head.webhookId }, 'webhook delivery failed')
    } finally {
      inFlight.delete(head.webhookId)
      wake()
    }
  }

  function record(head: Head, attempt: { status: number | null; ms: number; error: string | null }) {
    const client = getDb().$client
    const now = new Date()
    const at = now.toISOString()
    const number = head.attempt + 1
    const base = {
      seq: head.seq,
      attempt: number,
      at,
      status: attempt.status,
      ms: attempt.ms,
      error: attempt.error,
    }
    if (isSuccess(attempt.status)) {
      client
        .prepare(
          `update webhook_deliveries set state = 'delivered', attempt = @attempt, at = @at, status = @status, ms = @ms, error = null where seq = @seq`,
        )
        .run({ seq: base.seq, attempt: base.attempt, at: base.at, status: base.status, ms: base.ms })
      return
    }
    const failingSince = head.failingSince ?? at
    logger.warn(
      { webhookId: head.webhookId, delivery: head.id, attempt: number, status: attempt.status },
      'webhook delivery failed',
    )
    if (failedTooLong(failingSince, now, scale)) {
      client.transaction(() => {
        client
          .prepare(
            `update webhook_deliveries set attempt = @attempt, at = @at, status = @status, ms = @ms, error = @error, failing_since = @failingSince where seq = @seq`,
          )
          .run({ ...base, failingSince })
        client.prepare('update webhooks set disabled_at = ? where id = ?').run(at, head.webhookId)
        client
          .prepare(
            `update webhook_deliveries set state = 'abandoned' where webhook_id = ? and state = 'pending'`,
          )
          .run(head.webhookId)
      })()
      forgetEndpoints()
      logger.warn({ webhookId: head.webhookId }, 'webhook disabled after failing for the whole window')
      void tellOwners(head)
      return
    }
    const nextAt = new Date(now.getTime() + retryDelayMs(number, scale)).toISOString()
    client
      .prepare(
        `update webhook_deliveries set attempt = @attempt, at = @at, status = @status, ms = @ms, error = @error, failing_since = @failingSince, next_at = @nextAt where seq = @seq`,
      )
      .run({ ...base, failingSince, nextAt })
  }

  setQueuedListener(wake)
  wake()
  return () => {
    stopped = true
    clearTimeout(timer)
    setQueuedListener(undefined)
  }
}

async function tellOwners(head: Head) {
  const owners = getDb()
    .$client.prepare(
      `select a.email, a.name, w.name as workspaceName from members m
         join accounts a on a.id = m.account_id join workspaces w on w.id = m.workspace_id
       where m.workspace_id = ? and m.level in (select value from json_each(?))`,
    )
    .all(head.workspaceId, JSON.stringify(levelsAllowed('hearOfWebhookFailures'))) as {
    email: string
    name: string
    workspaceName: string
  }[]
  for (const owner of owners)
    await sendMail(webhookDisabledMessage(owner.email, owner.name, owner.workspaceName, head.url))
}

/** Keeps each endpoint's log to its last 50 messages (pending ones always stay). Returns how many went. */
export function pruneWebhookLog(): number {
  return getDb()
    .$client.prepare(
      `delete from webhook_deliveries where state != 'pending' and seq in (
         select seq from (
           select seq, row_number() over (partition by webhook_id order by seq desc) as from_newest
           from webhook_deliveries) where from_newest > ?)`,
    )
    .run(DELIVERY_LOG_SIZE).changes
}
