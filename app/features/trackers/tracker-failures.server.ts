import { getDb } from '~/lib/db/db.server'
import { singleton } from '~/lib/singleton.server'
import { DomainError, refuse } from '~/lib/errors'
import { sendMail } from '~/lib/email.server'
import { executeChange } from '~/features/map/door.server'
import { levelsAllowed } from '~/features/map/permissions'
import { githubTokenRefusedMessage, trackerNoticeMessage } from '~/features/notifications/index.server'
import { expiresSoon, PROVIDER_LABEL, tokenExpiringText, trackerStoppedText } from './tracker-api'
import {
  findTrackerLink,
  logTracker,
  setTrackerStatus,
  type TrackerLinkRow,
  type TrackerLogEntry,
} from './tracker-link.server'
import { trackerActor } from './tracker-issues.server'
import { TrackerFailure } from './connector/provider'

/**
 * What the connector does when a tracker refuses (CONTRACT §14): the link's status, the log, the
 * refusal a user's call gets, and the notice (Activity line and one e-mail to every OWNER and
 * ADMIN) when the token is refused or about to expire.
 */

/** A user's call refused by the tracker, with §14's code. */
export function trackerRefusal(failure: TrackerFailure): DomainError {
  switch (failure.kind) {
    case 'token_invalid':
      return refuse.conflict('tracker_token_invalid', `The tracker refused the token: ${failure.message}`)
    case 'missing':
    case 'project_invalid':
      return refuse.conflict(
        'tracker_project_missing',
        `The tracker does not show the project: ${failure.message}`,
      )
    case 'rate_limited': {
      const error = refuse.unavailable(
        'tracker_rate_limited',
        'The tracker rate-limits calls; try again later.',
      )
      error.retryAfter = Math.max(
        1,
        Math.ceil(((failure.retryAt ?? Date.now() + 60_000) - Date.now()) / 1000),
      )
      return error
    }
    case 'transition_missing':
      return refuse.conflict('tracker_transition_missing', failure.message)
    case 'rejected':
      return refuse.conflict('tracker_rejected', `The tracker refused: ${failure.message}`)
    case 'permission_missing':
      return refuse.conflict('tracker_permission_missing', `The tracker refused: ${failure.message}`)
    default:
      return refuse.upstream('tracker_unreachable', `The tracker could not be reached: ${failure.message}`)
  }
}

const STATUS_OF_KIND = {
  token_invalid: 'token_invalid',
  missing: null,
  project_invalid: 'project_missing',
  rate_limited: 'rate_limited',
  unreachable: 'unreachable',
  permission_missing: null,
  transition_missing: null,
  rejected: null,
} as const

/** Logs a failed operation and sets the link's status; a refused token stops the sync and tells the owners once. */
export function recordTrackerFailure(
  link: TrackerLinkRow,
  failure: TrackerFailure,
  entry: Omit<TrackerLogEntry, 'status' | 'error'>,
  retrying: boolean,
) {
  logTracker(link.projectId, { ...entry, status: retrying ? 'retrying' : 'failed', error: failure.message })
  const status = STATUS_OF_KIND[failure.kind]
  if (!status) return
  const current = findTrackerLink(link.projectId)
  if (!current || current.status === 'token_invalid') return
  setTrackerStatus(
    link.projectId,
    status,
    failure.message,
    failure.retryAt ? new Date(failure.retryAt).toISOString() : null,
  )
  if (status === 'token_invalid') tellOwners(current, trackerStoppedText(current.provider), 'tracker.stopped')
}

/**
 * A poll refused: a tracker project that is gone is `project_missing`, written once (later polls
 * that find it still gone change nothing); any other failure as above, retried by the next poll.
 */
export function recordPollFailure(link: TrackerLinkRow, failure: TrackerFailure) {
  if (failure.kind !== 'missing' && failure.kind !== 'project_invalid') {
    recordTrackerFailure(
      link,
      failure,
      { direction: 'pull', action: 'poll' },
      failure.kind !== 'token_invalid',
    )
    return
  }
  const current = findTrackerLink(link.projectId)
  if (!current || current.status === 'token_invalid') return
  const missing = current.status === 'project_missing' || current.status === 'repository_missing'
  if (missing && current.error === failure.message) return
  logTracker(link.projectId, { direction: 'pull', action: 'poll', status: 'failed', error: failure.message })
  setTrackerStatus(link.projectId, 'project_missing', failure.message)
}

/** Refuses a user's call while the link is stopped or rate-limited: no call goes to the tracker. */
export function assertTrackerUsable(link: TrackerLinkRow, now = Date.now()) {
  if (link.status === 'token_invalid')
    throw trackerRefusal(new TrackerFailure('token_invalid', link.error ?? 'link the project again.'))
  if (link.retryAt && Date.parse(link.retryAt) > now)
    throw trackerRefusal(
      new TrackerFailure('rate_limited', link.error ?? 'rate limited', Date.parse(link.retryAt)),
    )
}

/** A token within 14 days of its expiry: owners and admins hear it once per link (CONTRACT §14). */
export function noteExpiringToken(link: TrackerLinkRow) {
  if (!link.tokenExpiresAt) return
  tellOwners(link, tokenExpiringText(link.provider, link.tokenExpiresAt), 'tracker.expiring')
}

/** Links whose expiring token was told in this process: the change log is asked once per link. */
const toldExpiring = () => singleton('tracker-told-expiring', () => new Set<string>())

/**
 * The worker's side of the rule above: a token linked with more than 14 days left comes within
 * them later, and is told then, once (the change log keeps the notice across restarts).
 */
export function noteExpiringTokenOnce(link: TrackerLinkRow, now = Date.now()) {
  if (!link.tokenExpiresAt || !expiresSoon(link.tokenExpiresAt, now)) return
  const key = `${link.projectId} ${link.linkedAt} ${link.tokenExpiresAt}`
  if (toldExpiring().has(key)) return
  toldExpiring().add(key)
  const told = getDb()
    .$client.prepare(
      `select 1 from project_changes where project_id = ? and at >= ?
         and json_extract(command, '$.type') = 'tracker.expiring' limit 1`,
    )
    .get(link.projectId, link.linkedAt)
  if (!told) noteExpiringToken(link)
}

function tellOwners(link: TrackerLinkRow, summary: string, type: string) {
  const client = getDb().$client
  const project = client
    .prepare(
      'select p.title, w.name as workspaceName from projects p join workspaces w on w.id = p.workspace_id where p.id = ?',
    )
    .get(link.projectId) as { title: string; workspaceName: string } | undefined
  if (!project) return
  const actor = trackerActor(link)
  if (actor) {
    try {
      executeChange(actor, {
        action: 'edit',
        command: { type, projectId: link.projectId },
        log: { notice: { projectId: link.projectId, kind: 'project', summary } },
        write: () => undefined,
      })
    } catch (err) {
      if (!(err instanceof DomainError)) throw err
    }
  }
  const people = client
    .prepare(
      `select a.email, a.name from members m join accounts a on a.id = m.account_id
       where m.workspace_id = ? and m.level in (select value from json_each(?)) order by a.email`,
    )
    .all(link.workspaceId, JSON.stringify(levelsAllowed('hearOfTrackerFailures'))) as {
    email: string
    name: string
  }[]
  const boardPath = `/${encodeURIComponent(project.workspaceName)}/projects/${link.projectId}`
  for (const person of people)
    void sendMail(
      // §13's own e-mail for GitHub's refused token (its words, a link to the board's GitHub dialog).
      link.provider === 'github' && type === 'tracker.stopped'
        ? githubTokenRefusedMessage(person.email, person.name, project.title, link.repository, boardPath)
        : trackerNoticeMessage(person.email, person.name, {
            subject: summary,
            projectTitle: project.title,
            provider: PROVIDER_LABEL[link.provider],
            project: link.repository,
            boardPath,
          }),
    )
}
