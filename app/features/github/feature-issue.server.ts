import { getDb } from '~/lib/db/db.server'
import { appLink } from '~/lib/email.server'
import { findCard, publicFeature, type FeatureGithub, type FeatureRow } from '~/features/map/entities.server'
import { issueBody, labelKey, stateOfStatus, type IssueState, type SyncedValues } from './issue-mapping'

/**
 * A feature as its issue needs it: its fields, where it sits (for the footer), its tags' names
 * and colours; and the issue it is linked to with what both sides last agreed on.
 */
export type FeatureSnapshot = {
  id: string
  projectId: string
  workspaceId: string
  title: string
  description: string
  status: 'OPEN' | 'CLOSED'
  tagIds: string[]
  github: FeatureGithub | null
  lastModified: string
  release: string
  goal: string
  activity: string
  workspaceName: string
  tags: { id: string; name: string; color: string }[]
}

export function featureSnapshot(featureId: string): FeatureSnapshot | null {
  const client = getDb().$client
  const row = client
    .prepare(
      `select f.id, f.project_id as projectId, f.workspace_id as workspaceId, f.title, f.description, f.status,
         f.tag_ids as tagIds, f.github, f.last_modified as lastModified, m.title as release, s.title as activity,
         w.title as goal, ws.name as workspaceName
       from features f join milestones m on m.id = f.milestone_id join subworkflows s on s.id = f.subworkflow_id
         join workflows w on w.id = s.workflow_id join workspaces ws on ws.id = f.workspace_id
       where f.id = ?`,
    )
    .get(featureId) as
    | (Omit<FeatureSnapshot, 'tagIds' | 'github' | 'tags'> & { tagIds: string; github: string | null })
    | undefined
  if (!row) return null
  const tagIds = JSON.parse(row.tagIds) as string[]
  const projectTags = client
    .prepare('select id, name, color from tags where project_id = ?')
    .all(row.projectId) as FeatureSnapshot['tags']
  const tags = tagIds.map((id) => projectTags.find((t) => t.id === id)).filter((t) => t !== undefined)
  return {
    ...row,
    tagIds,
    github: row.github === null ? null : (JSON.parse(row.github) as FeatureGithub),
    tags,
  }
}

export const permalinkOf = (f: Pick<FeatureSnapshot, 'workspaceName' | 'projectId' | 'id'>) =>
  appLink(`/${encodeURIComponent(f.workspaceName)}/projects/${f.projectId}/f/${f.id}`)

/** The issue's title, body, labels and state for a feature. */
export function issueFields(f: FeatureSnapshot) {
  return {
    title: f.title,
    body: issueBody(f.description, {
      permalink: permalinkOf(f),
      release: f.release,
      goal: f.goal,
      activity: f.activity,
    }),
    labels: f.tags.map((t) => t.name),
    state: stateOfStatus(f.status) as IssueState,
  }
}

/** The map side of a linked feature, as compared with what was last synced. */
export function mapValues(f: FeatureSnapshot): SyncedValues {
  return {
    title: f.title,
    body: f.description,
    state: stateOfStatus(f.status),
    labels: labelKey(f.tags.map((t) => t.name)),
  }
}

export type IssueLinkRow = {
  featureId: string
  projectId: string
  repository: string
  number: number
  title: string
  body: string
  labels: string
  state: string
  issueUpdatedAt: string
}

const LINK_COLUMNS = `feature_id as featureId, project_id as projectId, repository, number, title, body, labels, state, issue_updated_at as issueUpdatedAt`

export function issueLinkOf(featureId: string): IssueLinkRow | undefined {
  return getDb()
    .$client.prepare(`select ${LINK_COLUMNS} from github_issues where feature_id = ?`)
    .get(featureId) as IssueLinkRow | undefined
}

/** The project's linked issues of this repository, by number. */
export function issueLinksOf(projectId: string, repository: string): Map<number, IssueLinkRow> {
  const rows = getDb()
    .$client.prepare(
      `select ${LINK_COLUMNS} from github_issues where project_id = ? and lower(repository) = lower(?)`,
    )
    .all(projectId, repository) as IssueLinkRow[]
  return new Map(rows.map((r) => [r.number, r]))
}

/** The links of features that still exist: an import undone (or its features deleted) frees its issues. */
export function liveIssueLinksOf(projectId: string, repository: string): Map<number, IssueLinkRow> {
  const links = issueLinksOf(projectId, repository)
  const live = new Set(
    getDb()
      .$client.prepare('select id from features where project_id = ?')
      .pluck()
      .all(projectId) as string[],
  )
  for (const [number, row] of links) if (!live.has(row.featureId)) links.delete(number)
  return links
}

/** Drops what a deleted feature left of an issue's link, so the issue can be linked again. */
export function forgetIssueNumber(projectId: string, repository: string, number: number) {
  getDb()
    .$client.prepare(
      'delete from github_issues where project_id = ? and lower(repository) = lower(?) and number = ?',
    )
    .run(projectId, repository, number)
}

/** Records what both sides now agree on for a feature's issue (inserted at first, updated after). */
export function saveIssueLink(row: IssueLinkRow) {
  getDb()
    .$client.prepare(
      `insert into github_issues (feature_id, project_id, repository, number, title, body, labels, state, issue_updated_at)
       values (@featureId, @projectId, @repository, @number, @title, @body, @labels, @state, @issueUpdatedAt)
       on conflict (feature_id) do update set project_id = excluded.project_id, repository = excluded.repository,
         number = excluded.number, title = excluded.title, body = excluded.body, labels = excluded.labels,
         state = excluded.state, issue_updated_at = excluded.issue_updated_at`,
    )
    .run(row)
}

/** A feature of this workspace as the API shows it. */
export function publicFeatureById(workspaceId: string, featureId: string) {
  return publicFeature(findCard(getDb(), 'feature', featureId, workspaceId) as FeatureRow)
}
