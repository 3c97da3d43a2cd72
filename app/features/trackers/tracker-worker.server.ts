import { getDb } from '~/lib/db/db.server'
import { logger } from '~/lib/logger.server'
import { coalescedWake } from '~/lib/coalesced-wake'
import { singleton } from '~/lib/singleton.server'
import { PROVIDER_LABEL } from './tracker-api'
import {
  connectionOf,
  connectorLinks,
  findTrackerLink,
  logTracker,
  markTrackerReachable,
  type TrackerLinkRow,
} from './tracker-link.server'
import { featureRecord, issueOfRemote, mayPull, setFeatureIssue, trackerActor } from './tracker-issues.server'
import { pushFeature } from './tracker-push.server'
import { pollEveryMs, pollOnce } from './tracker-sync.server'
import { markMissing } from './tracker-pull.server'
import { noteExpiringTokenOnce, recordPollFailure, recordTrackerFailure } from './tracker-failures.server'
import { setTrackerQueuedListener } from './tracker-outbox.server'
import { pushedFields } from './connector/issue-rules'
import { withTrackerLock } from './tracker-lock.server'
import { TrackerFailure, type Connection } from './connector/provider'

/**
 * The connector's one worker (CONTRACT §13, §14, ADR 38) for every link, in the server process:
 * per project, one operation at a time, it sends the outbox (each feature's waiting pushes
 * together, oldest first, with the feature as it is then) and polls every GITHUB_POLL_SECONDS
 * (GitHub) or TRACKER_POLL_SECONDS (the others). Network errors and 5xx back off and hold the
 * project's later pushes (a poll still goes: a change the tracker made meanwhile is pulled
 * first, by the conflict rule); a rate limit holds every call of that link until the tracker
 * says; a refused token stops the link; a linking member who may not edit now (plan inactive)
 * holds the polls. Everything waits in SQLite: a restart loses nothing.
 */

const IDLE_MS = 30_000
const BACKOFF_MS = [1_000, 5_000, 30_000, 120_000, 600_000]

type OutboxRow = { seq: number; featureId: string; fields: string; attempt: number; nextAt: string }

const pollDues = () => singleton('tracker-poll-dues', () => new Map<string, number>())

function pendingOf(link: TrackerLinkRow): OutboxRow[] {
  return getDb()
    .$client.prepare(
      `select seq, feature_id as featureId, fields, attempt, next_at as nextAt from github_outbox
       where project_id = ? and provider = ? order by seq`,
    )
    .all(link.projectId, link.provider) as OutboxRow[]
}

/** When the link next needs the worker (ms), or null when now. */
function nextDue(link: TrackerLinkRow, now: number): number | null {
  if (link.status === 'token_invalid') return now + IDLE_MS
  if (link.retryAt && Date.parse(link.retryAt) > now) return Date.parse(link.retryAt)
  const pending = pendingOf(link)
  const pushAt = pending.length > 0 ? Math.min(...pending.map((r) => Date.parse(r.nextAt))) : Infinity
  const pollAt = pollDues().get(link.projectId) ?? 0
  const due = Math.min(pushAt, pollAt)
  return due <= now ? null : due
}

async function pushAll(link: TrackerLinkRow, conn: Connection): Promise<boolean> {
  const rows = pendingOf(link)
  const byFeature = new Map<string, OutboxRow[]>()
  for (const row of rows) byFeature.set(row.featureId, [...(byFeature.get(row.featureId) ?? []), row])
  const client = getDb().$client
  for (const [featureId, featureRows] of byFeature) {
    if (featureRows.some((r) => Date.parse(r.nextAt) > Date.now())) return true
    const fields = pushedFields(featureRows.flatMap((r) => JSON.parse(r.fields) as string[]))
    const action = 'update'
    try {
      const issue = await pushFeature(link, conn, featureId, fields)
      markTrackerReachable(link.projectId)
      const del = client.prepare('delete from github_outbox where seq = ?')
      for (const r of featureRows) del.run(r.seq)
      if (!issue) continue
      logTracker(link.projectId, { direction: 'push', featureId, issue: issue.key, action, status: 'ok' })
      const feature = featureRecord(featureId)
      const actor = trackerActor(link)
      if (feature && actor)
        setFeatureIssue(
          { ...actor, via: PROVIDER_LABEL[link.provider] },
          feature,
          issueOfRemote(link, issue),
          `${PROVIDER_LABEL[link.provider]} issue ${issue.key} of feature '${feature.title}' is ${issue.state}`,
        )
    } catch (error) {
      if (!(error instanceof TrackerFailure)) throw error
      const key = featureRecord(featureId)?.issue?.key ?? null
      if (error.kind === 'missing') {
        const del = client.prepare('delete from github_outbox where seq = ?')
        for (const r of featureRows) del.run(r.seq)
        recordTrackerFailure(link, error, { direction: 'push', featureId, issue: key, action }, false)
        markMissing(link, [featureId])
        continue
      }
      if (
        error.kind === 'transition_missing' ||
        error.kind === 'permission_missing' ||
        error.kind === 'rejected'
      ) {
        const del = client.prepare('delete from github_outbox where seq = ?')
        for (const r of featureRows) del.run(r.seq)
        logTracker(link.projectId, {
          direction: 'push',
          featureId,
          issue: key,
          action,
          status: 'failed',
          error: error.kind === 'transition_missing' ? 'tracker_transition_missing' : error.message,
        })
        continue
      }
      const retrying = error.kind !== 'token_invalid'
      recordTrackerFailure(link, error, { direction: 'push', featureId, issue: key, action }, retrying)
      const attempt = Math.max(...featureRows.map((r) => r.attempt)) + 1
      const nextAt = error.retryAt ?? Date.now() + BACKOFF_MS[Math.min(attempt - 1, BACKOFF_MS.length - 1)]
      client
        .prepare('update github_outbox set attempt = ?, next_at = ? where project_id = ? and provider = ?')
        .run(attempt, new Date(nextAt).toISOString(), link.projectId, link.provider)
      return false
    }
  }
  return true
}

async function serve(projectId: string) {
  const link = findTrackerLink(projectId)
  if (!link || link.status === 'token_invalid') return
  const conn = connectionOf(link)
  if (!conn) {
    // Sealed under another SESSION_SECRET: the link reads as a refused token until relinked.
    const failure = new TrackerFailure(
      'token_invalid',
      'The stored token cannot be read; link the project again.',
    )
    recordTrackerFailure(link, failure, { direction: 'pull', action: 'poll' }, false)
    return
  }
  noteExpiringTokenOnce(link)
  await pushAll(link, conn)
  const due = pollDues().get(projectId) ?? 0
  if (due > Date.now()) return
  // Polled every interval; while the link may not pull (rate limit, plan inactive, the linking
  // member gone), looked at again after the same interval, calling nothing.
  pollDues().set(projectId, Date.now() + pollEveryMs(link.provider))
  const after = findTrackerLink(projectId)
  if (!after || !mayPull(after)) return
  try {
    await pollOnce(after, conn)
  } catch (error) {
    if (!(error instanceof TrackerFailure)) throw error
    recordPollFailure(after, error)
  }
}

/** A new or changed link, or a webhook, is polled at once. */
export function pollTrackerSoon(projectId: string) {
  pollDues().delete(projectId)
}

const busy = () => singleton('tracker-busy', () => new Set<string>())

export function startTrackerWorker(): () => void {
  let stopped = false
  let timer: NodeJS.Timeout | undefined
  const wake = coalescedWake(
    () => tick(),
    () => stopped,
  )
  function tick() {
    if (stopped) return
    clearTimeout(timer)
    const now = Date.now()
    let next = now + IDLE_MS
    let links: TrackerLinkRow[] = []
    try {
      links = connectorLinks()
    } catch (err) {
      logger.error({ err }, 'tracker links could not be read')
    }
    for (const link of links) {
      if (busy().has(link.projectId)) continue
      const due = nextDue(link, now)
      if (due !== null) {
        next = Math.min(next, due)
        continue
      }
      busy().add(link.projectId)
      void withTrackerLock(link.projectId, () => (stopped ? Promise.resolve() : serve(link.projectId)))
        .catch((err) => logger.error({ err, projectId: link.projectId }, 'tracker sync failed'))
        .finally(() => {
          busy().delete(link.projectId)
          wake()
        })
    }
    timer = setTimeout(tick, Math.max(5, next - now))
    timer.unref()
  }
  setTrackerQueuedListener(wake)
  wake()
  return () => {
    stopped = true
    clearTimeout(timer)
    setTrackerQueuedListener(undefined)
  }
}
