import { getDb } from '~/lib/db/db.server'
import { logger } from '~/lib/logger.server'
import { getEnv } from '~/lib/env.server'
import { coalescedWake } from '~/lib/coalesced-wake'
import { singleton } from '~/lib/singleton.server'
import { callOptions, githubCall, githubClient, GithubFailure } from './github-client.server'
import { allLinks, findLink, logSync, markReachable, type LinkRow } from './github-link.server'
import { featureSnapshot, issueFields, issueLinkOf, mapValues, saveIssueLink } from './feature-issue.server'
import { splitRepository, type SyncedField } from './issue-mapping'
import { ensureLabels } from './github-push.server'
import { markIssueMissing } from './github-pull.server'
import { mayPoll, scheduledPoll } from './github-poll.server'
import { noteFeatureGithub, recordFailure, tokenOf } from './sync-state.server'
import { pushRetryDelayMs } from './sync-failures'
import { setGithubQueuedListener } from './github-outbox.server'
import { isProjectBusy, withProjectLock } from './sync-lock.server'

/**
 * The GitHub worker (CONTRACT §13, ADR 26), in the server process: for each linked project, one
 * operation at a time, it sends the outbox (each feature's waiting pushes together, oldest
 * first, with the feature as it is then) and polls every GITHUB_POLL_SECONDS. Network errors and
 * 5xx back off and hold the project's later pushes; a rate limit holds every call of that link
 * until GitHub's `retry-after` / `x-ratelimit-reset`; a refused token stops the link. Everything
 * waits in SQLite, so a restart or an outage loses nothing.
 */

/** Looked at again at least this often, whatever the wake-ups say. */
const IDLE_MS = 30_000

type OutboxRow = { seq: number; featureId: string; fields: string; attempt: number; nextAt: string }

function pendingOf(projectId: string): OutboxRow[] {
  return getDb()
    .$client.prepare(
      "select seq, feature_id as featureId, fields, attempt, next_at as nextAt from github_outbox where project_id = ? and provider = 'github' order by seq",
    )
    .all(projectId) as OutboxRow[]
}

function done(seqs: number[]) {
  const statement = getDb().$client.prepare('delete from github_outbox where seq = ?')
  for (const seq of seqs) statement.run(seq)
}

/** Sends one feature's waiting pushes; false when the project must stop for now (GitHub down, limited or refusing). */
async function pushFeature(
  link: LinkRow,
  token: string,
  featureId: string,
  rows: OutboxRow[],
): Promise<boolean> {
  const seqs = rows.map((r) => r.seq)
  const feature = featureSnapshot(featureId)
  const issue = issueLinkOf(featureId)
  if (
    !feature ||
    !issue ||
    !feature.github ||
    feature.github.state === 'missing' ||
    issue.repository.toLowerCase() !== link.repository.toLowerCase()
  ) {
    done(seqs)
    return true
  }
  const fields = new Set(rows.flatMap((r) => JSON.parse(r.fields) as SyncedField[]))
  const wanted = issueFields(feature)
  const { owner, repo } = splitRepository(link.repository)
  const octokit = githubClient(token)
  try {
    if (fields.has('labels')) await ensureLabels(octokit, link.repository, feature.tags)
    const { data } = await githubCall(() =>
      octokit.rest.issues.update({
        owner,
        repo,
        issue_number: issue.number,
        ...(fields.has('title') ? { title: wanted.title } : {}),
        ...(fields.has('body') ? { body: wanted.body } : {}),
        ...(fields.has('state') ? { state: wanted.state } : {}),
        ...(fields.has('labels') ? { labels: wanted.labels } : {}),
        request: callOptions(),
      }),
    )
    const values = mapValues(feature)
    const agreed = { title: issue.title, body: issue.body, state: issue.state, labels: issue.labels }
    for (const field of fields) agreed[field] = values[field]
    saveIssueLink({ ...issue, ...agreed, issueUpdatedAt: data.updated_at })
    done(seqs)
    markReachable(link.projectId)
    logSync(link.projectId, {
      direction: 'push',
      featureId,
      issue: issue.number,
      action: [...fields].join(', '),
      status: 'ok',
    })
    const state = data.state === 'closed' ? 'closed' : 'open'
    if (feature.github.state !== state)
      noteFeatureGithub(
        link,
        featureId,
        { ...feature.github, state },
        `GitHub issue #${issue.number} of feature '${feature.title}' is ${state}`,
      )
    return true
  } catch (error) {
    if (!(error instanceof GithubFailure)) throw error
    const entry = {
      direction: 'push' as const,
      featureId,
      issue: issue.number,
      action: [...fields].join(', '),
    }
    const { kind } = error.failure
    if (kind === 'missing') {
      done(seqs)
      recordFailure(link, error.failure, entry, false)
      markIssueMissing(link, featureId)
      return true
    }
    if (kind === 'forbidden' || kind === 'rejected') {
      done(seqs)
      recordFailure(link, error.failure, entry, false)
      return true
    }
    if (kind === 'unreachable') {
      // Every later push of the project waits too: order first.
      const attempt = Math.max(...rows.map((r) => r.attempt)) + 1
      const nextAt = new Date(Date.now() + pushRetryDelayMs(attempt)).toISOString()
      getDb()
        .$client.prepare(
          "update github_outbox set attempt = ?, next_at = ? where project_id = ? and provider = 'github'",
        )
        .run(attempt, nextAt, link.projectId)
    }
    recordFailure(link, error.failure, entry, kind !== 'token_invalid')
    return false
  }
}

/** Sends the project's due pushes in order, feature by feature (a feature's rows go together). */
async function pushPending(link: LinkRow) {
  const token = tokenOf(link)
  if (!token) return
  const rows = pendingOf(link.projectId)
  const now = Date.now()
  const byFeature = new Map<string, OutboxRow[]>()
  for (const row of rows) {
    const list = byFeature.get(row.featureId) ?? []
    list.push(row)
    byFeature.set(row.featureId, list)
  }
  for (const [featureId, list] of byFeature) {
    if (Date.parse(list[0].nextAt) > now) continue
    if (!(await pushFeature(link, token, featureId, list))) return
  }
}

/**
 * When each project's next poll is due (ms since the epoch), in memory: a poll that finds nothing
 * writes nothing. A project not in it (just linked, or after a restart) is polled at once.
 */
const pollDues = () => singleton('github-poll-due', () => new Map<string, number>())

/** When the project next needs the worker (ms since the epoch), or null when it is due now. */
function nextDue(link: LinkRow, now: number): number | null {
  if (link.status === 'token_invalid') return Infinity
  if (link.retryAt && Date.parse(link.retryAt) > now) return Date.parse(link.retryAt)
  const pushAt = getDb()
    .$client.prepare("select min(next_at) from github_outbox where project_id = ? and provider = 'github'")
    .pluck()
    .get(link.projectId) as string | null
  const due = Math.min(pollDues().get(link.projectId) ?? now, pushAt ? Date.parse(pushAt) : Infinity)
  return due <= now ? null : due
}

async function serve(projectId: string) {
  const link = findLink(projectId)
  if (!link) return
  await pushPending(link)
  const after = findLink(projectId)
  if (!after || (pollDues().get(projectId) ?? 0) > Date.now()) return
  // Polled every GITHUB_POLL_SECONDS; while the linking member may not pull (plan inactive,
  // member gone, rate limit), looked at again after the same interval.
  pollDues().set(projectId, Date.now() + getEnv().GITHUB_POLL_SECONDS * 1000)
  if (mayPoll(after, Date.now())) await scheduledPoll(after)
}

/** A new or changed link is polled at once. */
export function pollSoon(projectId: string) {
  pollDues().delete(projectId)
}

export function startGithubWorker(): () => void {
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
    let links: LinkRow[]
    try {
      links = allLinks()
    } catch (err) {
      logger.error({ err }, 'github links could not be read')
      return
    }
    for (const link of links) {
      if (isProjectBusy(link.projectId)) continue
      const due = nextDue(link, now)
      if (due !== null) {
        next = Math.min(next, due)
        continue
      }
      void withProjectLock(link.projectId, () => (stopped ? Promise.resolve() : serve(link.projectId)))
        .catch((err) => logger.error({ err, projectId: link.projectId }, 'github sync failed'))
        .finally(wake)
    }
    timer = setTimeout(tick, Math.max(5, next - now))
    timer.unref()
  }

  setGithubQueuedListener(wake)
  wake()
  return () => {
    stopped = true
    clearTimeout(timer)
    setGithubQueuedListener(undefined)
  }
}
