import type Database from 'better-sqlite3'
import { getDb } from '~/lib/db/db.server'
import { singleton } from '~/lib/singleton.server'
import type { ChangeListener } from '~/features/map/listeners.server'
import { changedIssueFields } from './issue-mapping'

/**
 * The GitHub outbox (CONTRACT §13, ADR 26), filled inside the change's own transaction by its
 * follower (githubFollower, registered at start): one row per change of a feature
 * linked to an issue, naming the fields its issue must follow. Changes that came from GitHub (and
 * the sync's own bookkeeping) queue nothing: no ping-pong. The worker sends after the commit.
 */

type Entity = Record<string, unknown> | null
type Entry = { kind: string; id: string; before: Entity; after: Entity }

const shared = () =>
  singleton('github-outbox', () => ({ onQueued: undefined as (() => void) | undefined, queued: false }))

export function setGithubQueuedListener(listener: (() => void) | undefined) {
  shared().onQueued = listener
}

const linked = (entity: Entity) => {
  const github = entity?.github as { state?: string } | null | undefined
  return !!github && github.state !== 'missing'
}

const inserts = new WeakMap<Database.Database, Database.Statement>()

/** Queues the pushes a change needs; `fromGithub`: the change came from GitHub or is the sync's own. */
export function queueGithubPushes(
  client: Database.Database,
  change: { projectId: string; at: string; entries: readonly Entry[]; fromGithub: boolean },
) {
  if (change.fromGithub) return
  for (const entry of change.entries) {
    if (entry.kind !== 'feature' || !linked(entry.after)) continue
    const fields = changedIssueFields(entry.before, entry.after)
    if (fields.length === 0) continue
    let insert = inserts.get(client)
    if (!insert) {
      insert = client.prepare(
        'insert into github_outbox (project_id, feature_id, fields, created_at, next_at) values (?, ?, ?, ?, ?)',
      )
      inserts.set(client, insert)
    }
    insert.run(change.projectId, entry.id, JSON.stringify(fields), change.at, change.at)
    shared().queued = true
  }
}

/** After the commit: wakes the worker when the transaction queued pushes. */
export function afterGithubCommit() {
  const state = shared()
  if (!state.queued) return
  state.queued = false
  state.onQueued?.()
}

/** Wakes the worker now (a link made or changed, a webhook that needs a poll). */
export function wakeGithubWorker() {
  shared().onQueued?.()
}

/** Linked features' issues follow every change, except those from GitHub or the sync's own (no ping-pong). */
export const githubFollower: ChangeListener = {
  name: 'github',
  inTransaction: (change, { by, command }) =>
    queueGithubPushes(getDb().$client, {
      projectId: change.projectId,
      at: by.at,
      entries: change.entries,
      fromGithub: command.type.startsWith('github.'),
    }),
  afterCommit: afterGithubCommit,
}
