import { getDb } from '~/lib/db/db.server'
import { updateTrash } from '~/features/history/trash-entries.server'
import { afterCommit as wakeWebhooks, queueWebhooks } from '~/features/automation/webhook.server'
import { afterGithubCommit, queueGithubPushes } from '~/features/github/github-outbox.server'
import type { ChangeContext } from './change-events'
import type { AppendedChange } from './change-log.server'

/**
 * What follows from every change, in the change's own transaction: the trash keeps what it
 * deleted (ADR 12), each webhook endpoint that wants it gets a delivery row (CONTRACT §10), and
 * each feature linked to a GitHub issue a push row (CONTRACT §13).
 * Outboxes written here are sent by their workers after the commit, so no user's write ever
 * waits on another server.
 */
export function followChange(
  by: ChangeContext,
  request: { command: { type: string }; log?: { trash?: boolean; notice?: { kind: string } } },
  change: AppendedChange,
) {
  const kinds = change.notice ? [request.log?.notice?.kind ?? 'project'] : change.entries.map((e) => e.kind)
  queueWebhooks(getDb().$client, { workspaceId: by.workspaceId, projectId: change.projectId, version: change.version, at: by.at, kinds, event: change.event })
  updateTrash(by, change.projectId, change.version, change.entries, !!request.log?.trash || request.command.type === 'card.delete')
  // Linked features' issues follow, except for changes that came from GitHub or are the sync's own (no ping-pong).
  queueGithubPushes(getDb().$client, { projectId: change.projectId, at: by.at, entries: change.entries, fromGithub: request.command.type.startsWith('github.') })
}

/** After the commit: the outbox workers are woken for what the transaction queued. */
export function afterCommitFollowers() {
  wakeWebhooks()
  afterGithubCommit()
}
