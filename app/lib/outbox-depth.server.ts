import type Database from 'better-sqlite3'
import { getDb } from './db/db.server'

/**
 * How many messages wait in each outbox, for the `storymap_outbox_pending` gauge of /metrics,
 * counted when Prometheus scrapes, in covering indexes that hold only the waiting rows' range:
 * webhook deliveries per endpoint (`webhook_deliveries_endpoint_idx`), notification e-mails not yet
 * sent (`notification_queue_pending_idx`), and GitHub pushes (every row of that outbox waits: a
 * sent one is deleted). An outbox whose table this database does not have yet counts 0, and is
 * counted from the scrape after its migration made it.
 */
export const OUTBOXES = {
  webhooks: {
    table: 'webhook_deliveries',
    // CROSS JOIN keeps this order: each endpoint, then a search of its pending rows in the index.
    sql: `select count(*) from webhooks w cross join webhook_deliveries d on d.webhook_id = w.id and d.state = 'pending'`,
  },
  email: {
    table: 'notification_queue',
    sql: 'select count(*) from notification_queue where sent_at is null',
  },
  github: { table: 'github_outbox', sql: 'select count(*) from github_outbox' },
} as const

export type Outbox = keyof typeof OUTBOXES

type Statements = { tableExists: Database.Statement; counts: Map<Outbox, Database.Statement> }
const byConnection = new WeakMap<Database.Database, Statements>()

export function outboxDepths(): Record<Outbox, number> {
  const client = getDb().$client
  let statements = byConnection.get(client)
  if (!statements) {
    const tableExists = client
      .prepare("select count(*) from sqlite_master where type = 'table' and name = ?")
      .pluck()
    byConnection.set(client, (statements = { tableExists, counts: new Map() }))
  }
  const depths = { webhooks: 0, email: 0, github: 0 }
  for (const outbox of Object.keys(OUTBOXES) as Outbox[]) {
    let count = statements.counts.get(outbox)
    if (!count) {
      if (!statements.tableExists.get(OUTBOXES[outbox].table)) continue
      statements.counts.set(outbox, (count = client.prepare(OUTBOXES[outbox].sql).pluck()))
    }
    depths[outbox] = count.get() as number
  }
  return depths
}
