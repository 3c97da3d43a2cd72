import { prepared, statement } from '~/lib/db/prepared.server'
import { renderMentions } from '../map/mentions'
import { appLink, sendMail } from '~/lib/email.server'
import { commentNotificationMessage } from './email-messages.server'
import { getEnv } from '~/lib/env.server'
import { logger } from '~/lib/logger.server'
import { notificationSettings, setNotificationListener, unsubscribeKey } from './notifications.server'
import { coalescedWake } from '~/lib/coalesced-wake'

/**
 * The notification worker (CONTRACT §12): in the server process, it sends each member's pending
 * outbox rows of one card as one e-mail, at most one per member and card per window
 * (NOTIFICATIONS_WINDOW_SECONDS): the first goes at once, later ones wait for the window's end
 * and go together. The outbox is in SQLite, so a restart picks up the held rows.
 */
type Group = { memberId: string; featureId: string; lastSeq: number }
type Row = {
  seq: number
  authorName: string
  post: string
  featureTitle: string
  mentioned: number
  watching: number
}

const POLL_MS = 30_000

// Prepared once: every comment wakes the worker.
const pendingGroupsQuery = () =>
  prepared('notification-pending-groups', (db) =>
    db.$client.prepare(
      `select member_id as memberId, feature_id as featureId, max(seq) as lastSeq
       from notification_queue where sent_at is null group by member_id, feature_id`,
    ),
  )
const lastSentQuery = () =>
  prepared('notification-last-sent', (db) =>
    db.$client
      .prepare(
        'select max(sent_at) from notification_queue where member_id = ? and feature_id = ? and sent_at is not null',
      )
      .pluck(),
  )

export function startNotificationWorker(clock: () => number = Date.now): () => void {
  const windowMs = getEnv().NOTIFICATIONS_WINDOW_SECONDS * 1000
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
    const now = clock()
    let next = now + POLL_MS
    try {
      const groups = pendingGroupsQuery().all() as Group[]
      const lastSent = lastSentQuery()
      for (const group of groups) {
        const key = `${group.memberId} ${group.featureId}`
        if (inFlight.has(key)) continue
        const last = lastSent.get(group.memberId, group.featureId) as string | null
        const due = last ? Date.parse(last) + windowMs : now
        if (due <= now) void send(key, group, now)
        else next = Math.min(next, due)
      }
    } catch (err) {
      logger.error({ err }, 'notification outbox could not be read')
    }
    timer = setTimeout(tick, Math.max(5, next - now))
    timer.unref()
  }

  async function send(key: string, group: Group, now: number) {
    inFlight.add(key)
    try {
      const rows = statement(
        `select seq, author_name as authorName, post, feature_title as featureTitle, mentioned, watching
         from notification_queue where member_id = ? and feature_id = ? and sent_at is null and seq <= ? order by seq`,
      ).all(group.memberId, group.featureId, group.lastSeq) as Row[]
      // Claimed first: the window runs from this e-mail, and a stop mid-send does not send it twice.
      statement(
        'update notification_queue set sent_at = ? where member_id = ? and feature_id = ? and sent_at is null and seq <= ?',
      ).run(new Date(now).toISOString(), group.memberId, group.featureId, group.lastSeq)
      const mail = compose(group, rows)
      if (mail && !stopped) await sendMail(mail)
    } catch (err) {
      logger.error({ err, memberId: group.memberId }, 'notification could not be sent')
    } finally {
      inFlight.delete(key)
      wake()
    }
  }

  setNotificationListener(wake)
  wake()
  return () => {
    stopped = true
    clearTimeout(timer)
    setNotificationListener(undefined)
  }
}

function compose(group: Group, rows: Row[]) {
  const who = statement(
    `select a.id as accountId, a.email, m.workspace_id as workspaceId, w.name as workspaceName
       from members m join accounts a on a.id = m.account_id join workspaces w on w.id = m.workspace_id where m.id = ?`,
  ).get(group.memberId) as
    { accountId: string; email: string; workspaceId: string; workspaceName: string } | undefined
  if (!who || rows.length === 0) return null
  const settings = notificationSettings(who.accountId)
  const wanted = rows.filter((r) => (r.mentioned && settings.mentions) || (r.watching && settings.watching))
  if (wanted.length === 0) return null
  const names = new Map(
    (
      statement(
        'select m.id, a.name from members m join accounts a on a.id = m.account_id where m.workspace_id = ?',
      ).all(who.workspaceId) as { id: string; name: string }[]
    ).map((m) => [m.id, m.name]),
  )
  const feature = statement('select project_id as projectId, title from features where id = ?').get(
    group.featureId,
  ) as { projectId: string; title: string } | undefined
  const title = feature?.title ?? wanted[wanted.length - 1].featureTitle
  const cardUrl = feature
    ? appLink(`/${encodeURIComponent(who.workspaceName)}/projects/${feature.projectId}/f/${group.featureId}`)
    : appLink(`/${encodeURIComponent(who.workspaceName)}`)
  const items = wanted.map((r) => ({
    authorName: r.authorName,
    post: renderMentions(r.post, (id) => names.get(id)),
    mentioned: !!r.mentioned && settings.mentions,
  }))
  const kind = items.some((i) => i.mentioned) ? 'mentions' : 'watching'
  const unsubscribeUrl = appLink(`/account/notifications/${unsubscribeKey(who.accountId, kind)}`)
  return commentNotificationMessage(who.email, title, items, cardUrl, unsubscribeUrl, kind)
}
