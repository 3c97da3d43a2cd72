import crypto from 'node:crypto'
import { getDb } from '~/lib/db/db.server'
import { statement } from '~/lib/db/prepared.server'
import { refuse } from '~/lib/errors'
import { mentionedIds } from '~/features/map/mentions'
import type { ChangeListener } from '~/features/map/listeners.server'
import { randomKey, sameSecret } from '~/lib/crypto.server'
import { singleton } from '~/lib/singleton.server'

/**
 * Mentions, watching and the notification settings (CONTRACT §12). A new comment appends, in its
 * own transaction, one outbox row per member to tell; the worker (notification-worker.server.ts)
 * sends them. Raw statements on the one connection: inside a write they join its transaction.
 */
export type NotifyKind = 'mentions' | 'watching'

// The server and the Remix build are two bundles: the wake-up is kept where both see it.
const shared = () => singleton('notification-worker', () => ({ wake: undefined as (() => void) | undefined }))
/** The worker's wake-up, called after a comment is queued (a rolled-back one finds nothing). */
export function setNotificationListener(listener: (() => void) | undefined) {
  shared().wake = listener
}

const client = () => getDb().$client

/** Members of the workspace who watch the feature: chosen Watch (or commented), or created it and never chose Unwatch. */
export function watcherIds(featureId: string, createdBy: string): string[] {
  const rows = statement(
    'select member_id as memberId, watching from feature_watches where feature_id = ?',
  ).all(featureId) as { memberId: string; watching: number }[]
  const ids = new Set(rows.filter((r) => r.watching).map((r) => r.memberId))
  if (!rows.some((r) => r.memberId === createdBy && !r.watching)) ids.add(createdBy)
  return [...ids]
}

export function isWatching(featureId: string, createdBy: string, memberId: string): boolean {
  return watcherIds(featureId, createdBy).includes(memberId)
}

/** Watch or Unwatch a feature of the caller's workspace (any member, viewers included). */
export function setWatching(workspaceId: string, memberId: string, featureId: string, watching: boolean) {
  const feature = statement('select id from features where id = ? and workspace_id = ?').get(
    featureId,
    workspaceId,
  )
  if (!feature) throw refuse.notFound('Feature not found.', 'feature_not_found')
  statement(
    `insert into feature_watches (feature_id, member_id, watching) values (?, ?, ?)
       on conflict (feature_id, member_id) do update set watching = excluded.watching`,
  ).run(featureId, memberId, watching ? 1 : 0)
}

/** Who wrote the comment, as the change log has it. */
type Author = { workspaceId: string; memberId: string; name: string; now: string }

type QueuedRow = { memberId: string; mentioned: boolean; watching: boolean }

/** Appends the outbox rows (in the caller's transaction) and wakes the worker; never for the author. */
function queueRows(
  a: Author,
  feature: { id: string; title: string },
  comment: { id: string; post: string },
  rows: readonly QueuedRow[],
) {
  const insert = statement(
    `insert into notification_queue (workspace_id, member_id, feature_id, comment_id, mentioned, watching, author_name, post, feature_title, created_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  )
  let queued = 0
  for (const row of rows) {
    if (row.memberId === a.memberId) continue // nobody gets mail for their own comment
    insert.run(
      a.workspaceId,
      row.memberId,
      feature.id,
      comment.id,
      row.mentioned ? 1 : 0,
      row.watching ? 1 : 0,
      a.name,
      comment.post,
      feature.title,
      a.now,
    )
    queued++
  }
  const wake = shared().wake
  if (queued > 0 && wake) setImmediate(wake)
}

/** The members of the author's workspace among `ids`. */
function inWorkspace(a: Author, ids: Iterable<string>): Set<string> {
  const member = statement('select 1 from members where id = ? and workspace_id = ?')
  return new Set([...ids].filter((id) => member.get(id, a.workspaceId)))
}

/**
 * Called in the comment's transaction: the author now watches the feature (unless they chose
 * Unwatch), and every mentioned member and every other watcher gets an outbox row.
 */
export function queueCommentNotifications(
  a: Author,
  feature: { id: string; title: string; createdBy: string },
  comment: { id: string; post: string },
) {
  statement('insert or ignore into feature_watches (feature_id, member_id, watching) values (?, ?, 1)').run(
    feature.id,
    a.memberId,
  )
  const mentioned = inWorkspace(a, mentionedIds(comment.post))
  const watchers = inWorkspace(a, watcherIds(feature.id, feature.createdBy))
  const rows = [...new Set([...mentioned, ...watchers])].map((memberId) => ({
    memberId,
    mentioned: mentioned.has(memberId),
    watching: watchers.has(memberId),
  }))
  queueRows(a, feature, comment, rows)
}

/**
 * Called in an edited comment's transaction: the members the new text mentions and the old one
 * did not get a mention row (same settings and batching as a new comment). An edit is not a new
 * comment, so watchers hear nothing, and members mentioned before hear nothing new.
 */
export function queueEditNotifications(
  a: Author,
  feature: { id: string; title: string },
  comment: { id: string; post: string; previousPost: string },
) {
  const before = new Set(mentionedIds(comment.previousPost))
  const added = inWorkspace(
    a,
    mentionedIds(comment.post).filter((id) => !before.has(id)),
  )
  if (added.size === 0) return
  queueRows(
    a,
    feature,
    comment,
    [...added].map((memberId) => ({ memberId, mentioned: true, watching: false })),
  )
}

// ---- settings and unsubscribe keys

export type NotificationSettings = { mentions: boolean; watching: boolean }

function settingsRow(accountId: string) {
  const db = client()
  db.prepare('insert or ignore into notification_settings (account_id, secret) values (?, ?)').run(
    accountId,
    randomKey(),
  )
  return db
    .prepare('select mentions, watching, secret from notification_settings where account_id = ?')
    .get(accountId) as { mentions: number; watching: number; secret: string }
}

export function notificationSettings(accountId: string): NotificationSettings {
  const row = statement('select mentions, watching from notification_settings where account_id = ?').get(
    accountId,
  ) as { mentions: number; watching: number } | undefined
  return { mentions: row ? !!row.mentions : true, watching: row ? !!row.watching : true }
}

export function updateNotificationSettings(accountId: string, change: Partial<NotificationSettings>) {
  settingsRow(accountId)
  const db = client()
  if (change.mentions !== undefined)
    db.prepare('update notification_settings set mentions = ? where account_id = ?').run(
      change.mentions ? 1 : 0,
      accountId,
    )
  if (change.watching !== undefined)
    db.prepare('update notification_settings set watching = ? where account_id = ?').run(
      change.watching ? 1 : 0,
      accountId,
    )
}

const sign = (secret: string, payload: string) =>
  crypto.createHmac('sha256', secret).update(payload).digest('base64url').slice(0, 32)

/** The key of an unsubscribe link: the account, the kind, and a signature by the account's own secret, as one URL-safe token. */
export function unsubscribeKey(accountId: string, kind: NotifyKind): string {
  const payload = `${accountId}.${kind === 'mentions' ? 'm' : 'w'}`
  return Buffer.from(`${payload}.${sign(settingsRow(accountId).secret, payload)}`).toString('base64url')
}

/** The account and kind a key stands for, or null for a wrong or forged one. */
export function readUnsubscribeKey(key: string): { accountId: string; kind: NotifyKind } | null {
  if (!/^[A-Za-z0-9_-]{1,400}$/.test(key)) return null
  const m = /^([^.]+)\.([mw])\.([A-Za-z0-9_-]+)$/.exec(Buffer.from(key, 'base64url').toString('utf8'))
  if (!m) return null
  const row = statement('select secret from notification_settings where account_id = ?').get(m[1]) as
    { secret: string } | undefined
  if (!row || !sameSecret(sign(row.secret, `${m[1]}.${m[2]}`), m[3])) return null
  return { accountId: m[1], kind: m[2] === 'm' ? 'mentions' : 'watching' }
}

/** The workspace's members as the mention list shows them (viewers included), by name. */
export function workspaceMemberNames(
  workspaceId: string,
  only?: readonly string[],
): { id: string; name: string }[] {
  const rows = statement(
    'select m.id, a.name from members m join accounts a on a.id = m.account_id where m.workspace_id = ? order by a.name collate nocase',
  ).all(workspaceId) as { id: string; name: string }[]
  return only ? rows.filter((r) => only.includes(r.id)) : rows
}

/** Whether the member watches the feature (for the card dialog's Watch / Unwatch). */
export function watchState(workspaceId: string, memberId: string, featureId: string): boolean {
  const feature = statement(
    'select created_by as createdBy from features where id = ? and workspace_id = ?',
  ).get(featureId, workspaceId) as { createdBy: string } | undefined
  if (!feature) throw refuse.notFound('Feature not found.', 'feature_not_found')
  return isWatching(featureId, feature.createdBy, memberId)
}

/** Sent outbox rows older than a day go (the window needs only the last 10 minutes). Returns how many. */
export function pruneSentNotifications(now = new Date()): number {
  const before = new Date(now.getTime() - 24 * 60 * 60 * 1000).toISOString()
  return statement('delete from notification_queue where sent_at is not null and sent_at < ?').run(before)
    .changes
}

/** Account settings' `Notifications` form (CONTRACT §12): an unchecked switch is absent from the form. */
export const notificationIntents = {
  notifications({ account, formData }: { account: { id: string }; formData: FormData }): { done: string } {
    updateNotificationSettings(account.id, {
      mentions: formData.get('mentions') === 'on',
      watching: formData.get('watching') === 'on',
    })
    return { done: 'Notification settings saved.' }
  },
}

/**
 * Comment e-mails follow the comments written and edited (CONTRACT §12), in the comment's own
 * transaction. Undo, redo and restore bring a comment back without mailing anyone again.
 */
export const commentMailFollower: ChangeListener = {
  name: 'comment-mail',
  inTransaction: (change, { by, command }) => {
    if (command.type !== 'comment.create' && command.type !== 'comment.edit') return
    const author = { workspaceId: by.workspaceId, memberId: by.memberId, name: by.name, now: by.at }
    for (const entry of change.entries) {
      if (entry.kind !== 'featureComment' || entry.after === null) continue
      const post = String(entry.after.post)
      const feature = statement('select id, title, created_by as createdBy from features where id = ?').get(
        entry.after.featureId,
      ) as { id: string; title: string; createdBy: string } | undefined
      if (!feature) continue
      if (entry.before === null) queueCommentNotifications(author, feature, { id: entry.id, post })
      else if (entry.before.post !== post)
        queueEditNotifications(author, feature, {
          id: entry.id,
          post,
          previousPost: String(entry.before.post),
        })
    }
  },
}
