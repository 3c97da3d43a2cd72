import { eq } from 'drizzle-orm'
import { getDb } from '~/lib/db/db.server'
import { appLink } from '~/lib/email.server'
import { features } from '~/lib/db/schema'
import { DomainError } from '~/lib/errors'
import { logger } from '~/lib/logger.server'
import { executeChange, type ChangeActor } from '~/features/map/door.server'
import { can } from '~/features/map/permissions'
import type { FeatureTrackerIssue } from '~/features/map/entities.server'
import { getWorkspaceContextById } from '~/features/workspaces/index.server'
import { labelKey, SYNCED_FIELDS, type SyncedField } from './connector/issue-rules'
import { PROVIDER_LABEL } from './tracker-api'
import type { TrackerLinkRow } from './tracker-link.server'
import type { PushedFeature, RemoteIssue } from './connector/provider'

/**
 * A linked feature as the connector needs it (its fields, place, tags, release) and what it and
 * its issue last agreed on (tracker_issues, every provider's).
 */

export type FeatureRecord = PushedFeature & {
  id: string
  projectId: string
  workspaceId: string
  milestoneId: string
  tagIds: string[]
  issue: FeatureTrackerIssue | null
  lastModified: string
}

export function featureRecord(featureId: string): FeatureRecord | null {
  const client = getDb().$client
  const row = client
    .prepare(
      `select f.id, f.project_id as projectId, f.workspace_id as workspaceId, f.milestone_id as milestoneId,
         f.title, f.description, f.status, f.estimate, f.tag_ids as tagIds, f.issue, f.last_modified as lastModified,
         m.title as release, s.title as activity, w.title as goal, ws.name as workspaceName
       from features f join milestones m on m.id = f.milestone_id join subworkflows s on s.id = f.subworkflow_id
         join workflows w on w.id = s.workflow_id join workspaces ws on ws.id = f.workspace_id
       where f.id = ?`,
    )
    .get(featureId) as Record<string, string & number> | undefined
  if (!row) return null
  const tagIds = JSON.parse(row.tagIds) as string[]
  const projectTags = client
    .prepare('select id, name, color from tags where project_id = ?')
    .all(row.projectId) as { id: string; name: string; color: string }[]
  return {
    id: row.id,
    projectId: row.projectId,
    workspaceId: row.workspaceId,
    milestoneId: row.milestoneId,
    title: row.title,
    description: row.description,
    status: row.status === 'CLOSED' ? 'CLOSED' : 'OPEN',
    estimate: row.estimate,
    tagIds,
    tags: tagIds.map((id) => projectTags.find((t) => t.id === id)).filter((t) => t !== undefined),
    issue: row.issue ? (JSON.parse(row.issue) as FeatureTrackerIssue) : null,
    lastModified: row.lastModified,
    release: row.release,
    place: {
      permalink: appLink(`/${encodeURIComponent(row.workspaceName)}/projects/${row.projectId}/f/${row.id}`),
      release: row.release,
      goal: row.goal,
      activity: row.activity,
    },
  }
}

export type IssueRecord = {
  featureId: string
  projectId: string
  provider: string
  project: string
  issueId: string
  key: string
  title: string
  body: string
  labels: string
  state: string
  issueUpdatedAt: string
}

const RECORD_COLUMNS = `feature_id as featureId, project_id as projectId, provider, project, issue_id as issueId, key,
  title, body, labels, state, issue_updated_at as issueUpdatedAt`

export function issueRecordOf(featureId: string): IssueRecord | undefined {
  return getDb()
    .$client.prepare(`select ${RECORD_COLUMNS} from tracker_issues where feature_id = ?`)
    .get(featureId) as IssueRecord | undefined
}

/** The project's issues linked to features, on the link's tracker and project, by issue id. */
export function issueRecordsOf(link: TrackerLinkRow): Map<string, IssueRecord> {
  const rows = getDb()
    .$client.prepare(
      `select ${RECORD_COLUMNS} from tracker_issues where project_id = ? and provider = ? and lower(project) = lower(?)`,
    )
    .all(link.projectId, link.provider, link.repository) as IssueRecord[]
  return new Map(rows.map((r) => [r.issueId, r]))
}

/**
 * What both sides agree on now: the issue as just read or written. After a push of some fields
 * only (`pushed`), the others keep what was agreed before: a change the tracker made to them
 * meanwhile is still to be pulled.
 */
export function saveIssueRecord(
  link: TrackerLinkRow,
  featureId: string,
  issue: RemoteIssue,
  pushed?: readonly SyncedField[],
) {
  const now = {
    title: issue.title,
    body: issue.description,
    labels: labelKey(issue.labels),
    state: issue.state,
  }
  const before = pushed ? issueRecordOf(featureId) : undefined
  const agreed: Record<SyncedField, string> = { ...now }
  if (before && before.issueId === issue.id)
    for (const field of SYNCED_FIELDS) if (!pushed!.includes(field)) agreed[field] = before[field]
  getDb()
    .$client.prepare(
      `insert into tracker_issues (feature_id, project_id, provider, project, issue_id, key, title, body, labels, state, issue_updated_at)
       values (@featureId, @projectId, @provider, @project, @issueId, @key, @title, @body, @labels, @state, @updatedAt)
       on conflict (feature_id) do update set project_id = excluded.project_id, provider = excluded.provider,
         project = excluded.project, issue_id = excluded.issue_id, key = excluded.key, title = excluded.title,
         body = excluded.body, labels = excluded.labels, state = excluded.state, issue_updated_at = excluded.issue_updated_at`,
    )
    .run({
      featureId,
      projectId: link.projectId,
      provider: link.provider,
      project: link.repository,
      issueId: issue.id,
      key: issue.key,
      ...agreed,
      updatedAt: issue.updatedAt,
    })
}

export const issueOfRemote = (link: TrackerLinkRow, issue: RemoteIssue): FeatureTrackerIssue => ({
  provider: link.provider,
  key: issue.key,
  url: issue.url,
  state: issue.missing ? 'missing' : issue.state,
  status: issue.status,
})

const sameIssue = (a: FeatureTrackerIssue | null, b: FeatureTrackerIssue) =>
  !!a && a.key === b.key && a.url === b.url && a.state === b.state && a.status === b.status

/**
 * The feature's columns for its issue: `issue` (CONTRACT §14), and for a GitHub issue §13's
 * `github` `{number, url, state}` too.
 */
export function issueColumns(issue: FeatureTrackerIssue): { issue: string; github?: string } {
  if (issue.provider !== 'github') return { issue: JSON.stringify(issue) }
  const github = { number: Number(issue.key.replace(/^#/, '')), url: issue.url, state: issue.state }
  return { issue: JSON.stringify(issue), github: JSON.stringify(github) }
}

/** The linking member as the author of changes from the tracker (`via: "GitLab"`), or null when they left. */
export function trackerActor(link: TrackerLinkRow): ChangeActor | null {
  const member = getDb()
    .$client.prepare('select account_id as accountId from members where id = ? and workspace_id = ?')
    .get(link.linkedBy, link.workspaceId) as { accountId: string } | undefined
  const ctx = member ? getWorkspaceContextById(member.accountId, link.workspaceId) : null
  return ctx ? { ...ctx, via: PROVIDER_LABEL[link.provider] } : null
}

/**
 * Whether the tracker may be read for this link now: not stopped, not rate-limited, and its
 * linking member may still edit (a plan gone inactive holds pulls until it is active again).
 */
export function mayPull(link: TrackerLinkRow, now = Date.now()): boolean {
  if (link.status === 'token_invalid' || (link.retryAt && Date.parse(link.retryAt) > now)) return false
  const actor = trackerActor(link)
  return !!actor && can(actor, 'edit')
}

/** Sets a feature's `issue` (created, state, status, missing): an event and an Activity line, not an undo step. */
export function setFeatureIssue(
  actor: ChangeActor,
  feature: Pick<FeatureRecord, 'id' | 'projectId' | 'issue'>,
  issue: FeatureTrackerIssue,
  summary: string,
) {
  if (sameIssue(feature.issue, issue)) return
  try {
    executeChange(actor, {
      action: 'edit',
      command: { type: 'tracker.issue', id: feature.id, state: issue.state },
      log: { notice: { projectId: feature.projectId, kind: 'feature', summary } },
      write: (tx) => tx.update(features).set(issueColumns(issue)).where(eq(features.id, feature.id)).run(),
    })
  } catch (err) {
    if (!(err instanceof DomainError)) throw err
    logger.info({ featureId: feature.id, code: err.code }, 'tracker: feature issue not recorded')
  }
}
