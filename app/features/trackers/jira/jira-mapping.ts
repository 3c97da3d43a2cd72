import { DESCRIPTION_MAX, footerLine, tagsForLabels, titleOfIssue } from '../connector/issue-rules'
import { adfToMarkdown, isAdfDoc, markdownToAdf, type AdfDoc, type AdfNode } from '../markdown-adf'
import { retryAfterAt, type FeatureFromIssue, type TrackerFeature } from '../tracker-feature'

/**
 * How a feature and its Jira Cloud issue map onto each other (CONTRACT §14). Pure: the link's
 * checks (permissions, issue type, story-point field), the issue's fields from a feature (ADF
 * description with the footer, labels without spaces, fix version, story points), the transition
 * a status needs, what an issue says about its feature, and the polling JQL.
 */

/** A Jira project key: a capital letter, then capitals, digits or `_`. */
export const JIRA_PROJECT_KEY_PATTERN = /^[A-Z][A-Z0-9_]{1,254}$/

export const REQUIRED_PERMISSIONS = ['CREATE_ISSUES', 'EDIT_ISSUES', 'TRANSITION_ISSUES'] as const

/** The required permissions `GET /rest/api/3/mypermissions` says the account lacks. */
export function missingPermissions(answer: {
  permissions?: Record<string, { havePermission?: boolean }>
}): string[] {
  return REQUIRED_PERMISSIONS.filter((key) => answer.permissions?.[key]?.havePermission !== true)
}

type IssueType = { id?: string; name?: string; subtask?: boolean }
/** The issue type features become: `Story` when the project has it, else `Task`; null when neither. */
export function issueTypeFor(types: readonly IssueType[]): { id: string; name: string } | null {
  for (const wanted of ['story', 'task']) {
    const type = types.find((t) => !t.subtask && t.name?.toLowerCase() === wanted && t.id)
    if (type) return { id: type.id!, name: type.name! }
  }
  return null
}

export const STORY_POINT_FIELD_NAMES = ['Story point estimate', 'Story Points']

/** The id of the number field that carries a feature's size (`GET /rest/api/3/field`), or null. */
export function storyPointsFieldOf(
  fields: readonly { id?: string; name?: string; schema?: { type?: string } }[],
) {
  for (const name of STORY_POINT_FIELD_NAMES) {
    const field = fields.find((f) => f.id && f.name === name && f.schema?.type === 'number')
    if (field) return field.id!
  }
  return null
}

/** A tag's name as a Jira label: labels cannot hold spaces, so each becomes `-`. */
export const jiraLabel = (tagName: string) => tagName.trim().replace(/\s/g, '-')

/** The labels of a feature's tags. */
export function jiraLabels(tags: TrackerFeature['tags']): string[] {
  return [...new Set(tags.map((t) => jiraLabel(t.name)).filter((l) => l !== ''))]
}

/**
 * A feature's tags for an issue's labels: a label is the tag whose name it spells (spaces as `-`,
 * ignoring case), so `Needs-design` comes back as the tag `Needs design`; other labels are tags to make.
 */
export function tagsForJiraLabels(labels: readonly string[], tags: readonly { id: string; name: string }[]) {
  const byLabel = new Map(tags.map((t) => [jiraLabel(t.name).toLowerCase(), t.name]))
  return tagsForLabels(
    labels.map((l) => byLabel.get(l.toLowerCase()) ?? l),
    tags,
  )
}

/** The project's version for a release: the one of the same name (not archived first), or null (to be created). */
export function fixVersionFor(
  release: string,
  versions: readonly { id?: string; name?: string; archived?: boolean }[],
) {
  const same = versions.filter((v) => v.name === release && v.id)
  return (same.find((v) => !v.archived) ?? same[0])?.id ?? null
}

const FOOTER_START = 'Story map: '

/** The footer as ADF: a rule, then `Story map: {permalink} · …` with the permalink a link. */
function footerNodes(place: TrackerFeature['place']): AdfNode[] {
  const rest = footerLine(place).slice(FOOTER_START.length + place.permalink.length)
  return [
    { type: 'rule' },
    {
      type: 'paragraph',
      content: [
        { type: 'text', text: FOOTER_START },
        { type: 'text', text: place.permalink, marks: [{ type: 'link', attrs: { href: place.permalink } }] },
        { type: 'text', text: rest },
      ],
    },
  ]
}

/** An issue's description: the feature's (Markdown as ADF), then the footer. */
export function jiraDescription(feature: Pick<TrackerFeature, 'description' | 'place'>): AdfDoc {
  return {
    type: 'doc',
    version: 1,
    content: [...markdownToAdf(feature.description).content, ...footerNodes(feature.place)],
  }
}

const plainText = (node: AdfNode | undefined): string =>
  node?.type === 'text' ? (node.text ?? '') : (node?.content ?? []).map(plainText).join('')

/** The feature's description from an issue's: the part above the footer's rule, as Markdown. */
export function descriptionOfAdf(doc: unknown): string {
  if (!isAdfDoc(doc)) return ''
  const content = [...doc.content]
  const last = content[content.length - 1]
  if (
    content[content.length - 2]?.type === 'rule' &&
    last?.type === 'paragraph' &&
    plainText(last).startsWith(FOOTER_START)
  )
    content.splice(-2)
  return adfToMarkdown({ ...doc, content }).slice(0, DESCRIPTION_MAX)
}

export type JiraLinkFields = {
  /** The story-point field's id, when the project has one. */
  storyPointsField: string | null
  /** The release's fix version, null for none. */
  fixVersionId: string | null
}

/** The fields a push sets (`PUT /rest/api/3/issue/{key}`); a size of 0 is no estimate. */
export function jiraEditFields(feature: TrackerFeature, link: JiraLinkFields): Record<string, unknown> {
  const fields: Record<string, unknown> = {
    summary: feature.title,
    description: jiraDescription(feature),
    labels: jiraLabels(feature.tags),
    fixVersions: link.fixVersionId ? [{ id: link.fixVersionId }] : [],
  }
  if (link.storyPointsField) fields[link.storyPointsField] = feature.estimate > 0 ? feature.estimate : null
  return fields
}

/** The fields of a new issue (`POST /rest/api/3/issue`). */
export function jiraCreateFields(
  feature: TrackerFeature,
  link: JiraLinkFields & { projectKey: string; issueTypeId: string },
) {
  return {
    project: { key: link.projectKey },
    issuetype: { id: link.issueTypeId },
    ...jiraEditFields(feature, link),
  }
}

export type StatusCategoryKey = 'new' | 'indeterminate' | 'done' | 'undefined'
export type JiraTransition = {
  id?: string
  name?: string
  isAvailable?: boolean
  to?: { name?: string; statusCategory?: { key?: string } }
}

/** A feature's status from its issue's status category. */
export const statusOfCategory = (key: string | undefined): 'OPEN' | 'CLOSED' =>
  key === 'done' ? 'CLOSED' : 'OPEN'

/**
 * How to bring an issue to a feature's status: nothing when its category already matches; CLOSED
 * → the first available transition to a `done` status; OPEN → one to `new`, else to
 * `indeterminate`; none of those → `tracker_transition_missing`.
 */
export function transitionFor(
  status: 'OPEN' | 'CLOSED',
  current: string | undefined,
  transitions: readonly JiraTransition[],
) {
  if (statusOfCategory(current) === status) return { action: 'none' as const }
  const usable = transitions.filter((t) => t.id && t.isAvailable !== false)
  const to = (key: string) => usable.find((t) => t.to?.statusCategory?.key === key)
  const chosen = status === 'CLOSED' ? to('done') : (to('new') ?? to('indeterminate'))
  if (chosen)
    return { action: 'transition' as const, id: chosen.id!, name: chosen.to?.name ?? chosen.name ?? '' }
  return { action: 'missing' as const, code: 'tracker_transition_missing' as const }
}

export type JiraIssueLike = {
  key?: string
  fields?: {
    summary?: string | null
    description?: unknown
    labels?: string[] | null
    status?: { name?: string; statusCategory?: { key?: string } } | null
    updated?: string
  }
}

/** What an issue says about its feature, and the status name the board shows. */
export function featureFromJiraIssue(issue: JiraIssueLike): FeatureFromIssue & { statusName: string | null } {
  const fields = issue.fields ?? {}
  return {
    status: statusOfCategory(fields.status?.statusCategory?.key),
    statusName: fields.status?.name ?? null,
    title: titleOfIssue(fields.summary ?? ''),
    description: descriptionOfAdf(fields.description),
    labels: fields.labels ?? [],
    missing: false,
  }
}

/** The fields a poll or a re-read asks for. */
export const SYNC_FIELDS = ['summary', 'description', 'labels', 'status', 'updated', 'fixVersions']

/** `yyyy-MM-dd HH:mm` of an instant in a time zone (JQL reads dates in the account's zone, to the minute). */
export function jqlDateTime(instant: Date | number | string, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(instant))
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '00'
  return `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')}`
}

/**
 * The poll: issues of the project updated since the minute of `since` (so a change in that
 * minute is read again, unchanged, rather than missed), oldest first.
 */
export function updatedSinceJql(projectKey: string, since: Date | number | string, timeZone: string): string {
  return `project = "${projectKey}" AND updated >= "${jqlDateTime(since, timeZone)}" ORDER BY updated ASC`
}

/** The issues of a project not done (an `open` import). */
export const openIssuesJql = (projectKey: string) =>
  `project = "${projectKey}" AND statusCategory != Done ORDER BY key ASC`

/** Given issues by key (a `Sync now` re-read). */
export const issueKeysJql = (keys: readonly string[]) => `key in (${keys.join(', ')}) ORDER BY key ASC`

/** Until when a Jira answer says to wait (ms since the epoch), or null when it is no rate limit: a 429, `Retry-After` or a minute. */
export function jiraRateLimitUntil(status: number, headers: Record<string, string | undefined>, now: number) {
  if (status !== 429) return null
  return retryAfterAt(headers['retry-after'], now) ?? now + 60_000
}

/** A Jira admin webhook body: the event and the issue it names, or null when it is none we take. */
export function readJiraWebhook(body: unknown) {
  const hook = body as {
    webhookEvent?: string
    timestamp?: number
    issue?: { id?: string; key?: string }
  } | null
  const event = hook?.webhookEvent
  if ((event !== 'jira:issue_updated' && event !== 'jira:issue_deleted') || !hook?.issue?.key) return null
  return {
    event,
    deleted: event === 'jira:issue_deleted',
    key: hook.issue.key,
    id: hook.issue.id ?? null,
    timestamp: hook.timestamp ?? null,
  }
}
