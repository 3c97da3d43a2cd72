import { issueOfGithub } from './issue-mapping'
import { eq } from 'drizzle-orm'
import { getDb } from '~/lib/db/db.server'
import { features } from '~/lib/db/schema'
import { DomainError, refuse } from '~/lib/errors'
import { sendMail } from '~/lib/email.server'
import { logger } from '~/lib/logger.server'
import { githubTokenRefusedMessage } from '~/features/notifications/index.server'
import type { FeatureGithub } from '~/features/map/entities.server'
import { executeChange, type ChangeActor } from '~/features/map/door.server'
import { getWorkspaceContextById } from '~/features/workspaces/index.server'
import { findLink, logSync, setLinkStatus, type LinkRow, type LogEntry } from './github-link.server'
import { refusalOf, statusOfFailure, type SyncFailure } from './sync-failures'
import { decryptToken } from './github-secrets.server'
import { GithubFailure } from './github-client.server'
import { levelsAllowed } from '~/features/map/permissions'

/**
 * What the sync knows beside the map: who acts for GitHub (the member who linked the
 * repository, `via: "GitHub"`), the link's status after a failure (and the e-mail when GitHub
 * refuses the token), and a feature's `github` changing, which is an event and an Activity line
 * but not an undo step.
 */

export const VIA_GITHUB = 'GitHub'

/** The linking member as the author of changes that come from GitHub, or null when they left the workspace. */
export function linkingActor(link: Pick<LinkRow, 'linkedBy' | 'workspaceId'>): ChangeActor | null {
  const member = getDb()
    .$client.prepare('select account_id as accountId from members where id = ? and workspace_id = ?')
    .get(link.linkedBy, link.workspaceId) as { accountId: string } | undefined
  const ctx = member ? getWorkspaceContextById(member.accountId, link.workspaceId) : null
  return ctx ? { ...ctx, via: VIA_GITHUB } : null
}

/** The link's token, or null when this server cannot open it (SESSION_SECRET changed). */
export function tokenOf(link: LinkRow): string | null {
  return decryptToken(link.tokenCipher, link.projectId)
}

/** Sets a feature's `github` (created, state, missing) as a change that is not an undo step. */
export function setFeatureGithub(
  actor: ChangeActor,
  projectId: string,
  featureId: string,
  github: FeatureGithub,
  summary: string,
) {
  executeChange(actor, {
    action: 'edit',
    command: { type: 'github.issue', id: featureId, state: github.state },
    log: { notice: { projectId, kind: 'feature', summary } },
    write: (tx) =>
      tx
        .update(features)
        .set({ github: JSON.stringify(github), issue: issueOfGithub(github) })
        .where(eq(features.id, featureId))
        .run(),
  })
}

/** Sets a feature's `github` as the linking member, when GitHub's side changed it; quietly skipped if they cannot act. */
export function noteFeatureGithub(link: LinkRow, featureId: string, github: FeatureGithub, summary: string) {
  const actor = linkingActor(link)
  if (!actor) return
  try {
    setFeatureGithub(actor, link.projectId, featureId, github, summary)
  } catch (err) {
    if (!(err instanceof DomainError)) throw err
    logger.info(
      { projectId: link.projectId, featureId, code: err.code },
      'github: feature state not recorded',
    )
  }
}

/**
 * After GitHub refused a call: logs it, and sets the link's status. A refused token stops the
 * sync; the first time, every OWNER and ADMIN of the workspace gets an e-mail and the board an
 * Activity line (so open boards show the notice).
 */
export function recordFailure(
  link: LinkRow,
  failure: SyncFailure,
  entry: Omit<LogEntry, 'status' | 'error'>,
  retrying: boolean,
) {
  logSync(link.projectId, { ...entry, status: retrying ? 'retrying' : 'failed', error: failure.message })
  const status = statusOfFailure(failure.kind)
  if (!status) return
  const current = findLink(link.projectId)
  if (!current || current.status === 'token_invalid') return
  setLinkStatus(
    link.projectId,
    status,
    failure.message,
    failure.retryAt ? new Date(failure.retryAt).toISOString() : null,
  )
  if (status === 'token_invalid') tokenRefused(current)
}

/** A user's request failed on GitHub: recorded as above, then refused with the contract's code. */
export function refuseForFailure(
  link: LinkRow,
  error: unknown,
  entry: Omit<LogEntry, 'status' | 'error'>,
): never {
  if (!(error instanceof GithubFailure)) throw error
  recordFailure(link, error.failure, entry, false)
  throw domainRefusal(error.failure)
}

export function domainRefusal(failure: SyncFailure): DomainError {
  const refusal = refusalOf(failure, Date.now())
  const kind = refusal.status === 503 ? 'unavailable' : refusal.status === 502 ? 'upstream' : 'conflict'
  const error = new DomainError(kind, refusal.code, refusal.message)
  if (refusal.retryAfter) error.retryAfter = refusal.retryAfter
  return error
}

/** Refuses a user's call while the link waits out a rate limit or has a refused token: no call goes to GitHub. */
export function assertLinkUsable(link: LinkRow, now = Date.now()) {
  if (link.status === 'token_invalid' || tokenOf(link) === null)
    throw domainRefusal({
      kind: 'token_invalid',
      message: link.error ?? 'the token was refused; link the repository again.',
    })
  if (link.retryAt && Date.parse(link.retryAt) > now)
    throw domainRefusal({
      kind: 'rate_limited',
      message: link.error ?? 'rate limited',
      retryAt: Date.parse(link.retryAt),
    })
}

export function requireLink(projectId: string): LinkRow {
  const link = findLink(projectId)
  if (!link) throw refuse.conflict('github_not_linked', 'This project is not linked to a GitHub repository.')
  return link
}

function tokenRefused(link: LinkRow) {
  const client = getDb().$client
  const project = client
    .prepare(
      'select p.title, w.name as workspaceName from projects p join workspaces w on w.id = p.workspace_id where p.id = ?',
    )
    .get(link.projectId) as { title: string; workspaceName: string } | undefined
  if (!project) return
  const actor = linkingActor(link)
  if (actor) {
    try {
      executeChange(actor, {
        action: 'edit',
        command: { type: 'github.stopped', projectId: link.projectId },
        log: {
          notice: {
            projectId: link.projectId,
            kind: 'project',
            summary: 'GitHub sync stopped: the token was refused.',
          },
        },
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
      githubTokenRefusedMessage(person.email, person.name, project.title, link.repository, boardPath),
    )
}
