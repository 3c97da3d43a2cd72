import type Database from 'better-sqlite3'
import { getDb } from '~/lib/db/db.server'
import { singleton } from '~/lib/singleton.server'
import type { ChangeListener } from '~/features/map/listeners.server'
import { followedFields } from './connector/issue-rules'

/**
 * The one outbox (github_outbox, its `provider` column; CONTRACT §13, §14, ADR 38): a change of a
 * feature linked to an issue on any tracker queues a push in the change's own transaction;
 * changes that came from the tracker, or the sync's own bookkeeping, queue nothing (no
 * ping-pong). The worker sends after the commit.
 */

type Entity = Record<string, unknown> | null

const shared = () =>
  singleton('tracker-outbox', () => ({ onQueued: undefined as (() => void) | undefined, queued: false }))

export function setTrackerQueuedListener(listener: (() => void) | undefined) {
  shared().onQueued = listener
}

/** Wakes the worker now (a link made, a webhook). */
export function wakeTrackerWorker() {
  shared().onQueued?.()
}

const issueOf = (entity: Entity) => entity?.issue as { provider?: string; state?: string } | null | undefined

const inserts = new WeakMap<Database.Database, Database.Statement>()

function queue(
  client: Database.Database,
  projectId: string,
  at: string,
  entries: readonly { kind: string; id: string; before: Entity; after: Entity }[],
) {
  for (const entry of entries) {
    const issue = issueOf(entry.after)
    if (entry.kind !== 'feature' || !issue?.provider || issue.state === 'missing') continue
    const fields = followedFields(entry.before, entry.after)
    if (fields.length === 0) continue
    let insert = inserts.get(client)
    if (!insert) {
      insert = client.prepare(
        'insert into github_outbox (project_id, feature_id, provider, fields, created_at, next_at) values (?, ?, ?, ?, ?, ?)',
      )
      inserts.set(client, insert)
    }
    insert.run(projectId, entry.id, issue.provider, JSON.stringify(fields), at, at)
    shared().queued = true
  }
}

export const trackerFollower: ChangeListener = {
  name: 'trackers',
  inTransaction: (change, { by, command }) => {
    if (command.type.startsWith('tracker.')) return
    queue(getDb().$client, change.projectId, by.at, change.entries)
  },
  afterCommit: () => {
    const state = shared()
    if (!state.queued) return
    state.queued = false
    state.onQueued?.()
  },
}
