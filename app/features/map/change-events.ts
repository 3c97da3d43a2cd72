/**
 * Folding the rows one write touched into one change (CONTRACT §6), and the text of its live
 * event. Pure: the entity states come in as the JSON text SQLite rendered, and go out as is.
 */

/** One touched row as captured: its state before and after one statement (null: absent). */
export type TouchedRow = {
  kind: string
  id: string
  projectId: string
  old: string | null
  new: string | null
}

/** One entity a change touched: its state before the write and after it (null: absent). */
export type EntityChange = {
  kind: string
  id: string
  projectId: string
  before: string | null
  after: string | null
}

/**
 * The net change per entity, in the order the entities were first touched: the state before the
 * first statement and after the last. An entity created and deleted in one write, or left as it
 * was (a rank parked and written back, an edit to the same value), is not a change.
 */
export function foldTouchedRows(rows: readonly TouchedRow[]): EntityChange[] {
  const byEntity = new Map<string, EntityChange>()
  for (const row of rows) {
    const key = `${row.kind}:${row.id}`
    const seen = byEntity.get(key)
    if (seen) seen.after = row.new
    else
      byEntity.set(key, {
        kind: row.kind,
        id: row.id,
        projectId: row.projectId,
        before: row.old,
        after: row.new,
      })
  }
  return [...byEntity.values()].filter((c) => c.before !== c.after)
}

/** The changes grouped by project, each group in touch order (one write normally touches one project). */
export function groupByProject(changes: readonly EntityChange[]): Map<string, EntityChange[]> {
  const groups = new Map<string, EntityChange[]>()
  for (const change of changes) {
    const group = groups.get(change.projectId)
    if (group) group.push(change)
    else groups.set(change.projectId, [change])
  }
  return groups
}

/** Who made a change; `via` names the API token it was made with (CONTRACT §10). */
export type ChangeAuthor = { memberId: string; name: string; via?: string | null }

/** Who makes a logged change, in which workspace, and when (ISO time). */
export type ChangeContext = ChangeAuthor & { workspaceId: string; at: string }

/** The `by` of events and activity items: `via` only when there is one. */
export const authorJson = (by: ChangeAuthor) =>
  by.via ? { memberId: by.memberId, name: by.name, via: by.via } : { memberId: by.memberId, name: by.name }

/**
 * The `data` of a live `change` event: `{"version","at","by","changes":[upserts and deletes]}`,
 * and its activity sentence as `summary` (the board's Activity panel shows it as it comes).
 */
export function changeEventJson(
  version: number,
  at: string,
  by: ChangeAuthor,
  changes: readonly EntityChange[],
  summary = '',
): string {
  const items = changes.map((c) =>
    c.after === null
      ? `{"op":"delete","kind":${JSON.stringify(c.kind)},"id":${JSON.stringify(c.id)}}`
      : `{"op":"upsert","kind":${JSON.stringify(c.kind)},"entity":${c.kind === 'project' ? withoutShareKey(c.after) : c.after}}`,
  )
  return `{"version":${version},"at":${JSON.stringify(at)},"by":${JSON.stringify(authorJson(by))},"changes":[${items.join(',')}],"summary":${JSON.stringify(summary)}}`
}

/**
 * A project as events show it: without `externalLink`. The share key is access, not content: it
 * never goes to streams or webhooks (the public link's own viewers included); the change log's
 * prior states keep it, so an undone delete brings the same link back.
 */
function withoutShareKey(projectJson: string): string {
  const { externalLink: _key, ...project } = JSON.parse(projectJson) as Record<string, unknown>
  return JSON.stringify(project)
}

/** What the change replaced: every touched entity's state before it (null: it was created). */
export function priorStateJson(changes: readonly EntityChange[]): string {
  const items = changes.map(
    (c) => `{"kind":${JSON.stringify(c.kind)},"id":${JSON.stringify(c.id)},"before":${c.before ?? 'null'}}`,
  )
  return `[${items.join(',')}]`
}

/** The repository a GitHub notice names (`… to GitHub repository 'acme/shop'`). */
const GITHUB_REPOSITORY = / GitHub repository '[^']*'/g
/** The tracker project a GitLab or Jira link notice names (`… to tracker project 'acme/shop'`). */
const TRACKER_PROJECT = / tracker project '[^']*'/g

/**
 * An event as a public link's stream shows it: features without their GitHub issue, and a link
 * notice's sentence without the repository's name (CONTRACT §13: the public link shows neither).
 * Events that carry none are passed on as they are.
 */
export function withoutGithubIssues(eventJson: string): string {
  if (
    !eventJson.includes('"github":{') &&
    !eventJson.includes('"issue":{') &&
    !eventJson.includes(' GitHub repository ') &&
    !eventJson.includes(' tracker project ')
  )
    return eventJson
  const event = JSON.parse(eventJson) as {
    changes: { op: string; kind: string; entity?: Record<string, unknown> }[]
    summary?: string
  }
  for (const change of event.changes)
    if (change.entity && change.kind === 'feature') {
      delete change.entity.github
      delete change.entity.issue
    }
  if (event.summary)
    event.summary = event.summary.replace(GITHUB_REPOSITORY, ' GitHub').replace(TRACKER_PROJECT, ' tracker')
  return JSON.stringify(event)
}
