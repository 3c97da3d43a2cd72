import {
  issueJson,
  parseJql,
  wallToInstant,
  type JiraIssue,
  type JiraUser,
  type Site,
} from './fake-jira-shapes'

/**
 * The fake Jira's rules (fake-jira.ts): how it checks an issue's fields on create and edit, how it
 * answers a JQL search, and how a change reads in a webhook's changelog.
 */

type Obj = Record<string, any>
export type ChangeItem = {
  field: string
  fieldtype: string
  fieldId: string
  from: string | null
  fromString: string | null
  to: string | null
  toString: string | null
}

export const ALL_PERMISSIONS = [
  'BROWSE_PROJECTS',
  'CREATE_ISSUES',
  'EDIT_ISSUES',
  'TRANSITION_ISSUES',
  'DELETE_ISSUES',
]
const NAMES: Record<string, string> = {
  BROWSE_PROJECTS: 'Browse Projects',
  CREATE_ISSUES: 'Create Issues',
  EDIT_ISSUES: 'Edit Issues',
  TRANSITION_ISSUES: 'Transition Issues',
  DELETE_ISSUES: 'Delete Issues',
}

/** `GET /rest/api/3/mypermissions`: each permission asked for, and whether the account has it. */
export function permissionsJson(wanted: string[], have: Set<string>) {
  const permissions = Object.fromEntries(
    wanted.map((p) => [
      p,
      {
        id: String(ALL_PERMISSIONS.indexOf(p) + 10),
        key: p,
        name: NAMES[p] ?? p,
        type: 'PROJECT',
        description: '',
        havePermission: have.has(p),
      },
    ]),
  )
  return { permissions }
}

export const statusOf = (site: Site, id: string) => site.statuses.find((s) => s.id === id)!

/** The fields of a create or edit, checked as Jira checks them; answers 400 and null when one is wrong. */
export function checkFields(
  site: Site,
  projectKey: string,
  fields: Obj,
  creating: boolean,
): { fields: Partial<JiraIssue> } | { errors: Record<string, string> } {
  const out: Partial<JiraIssue> = {}
  const bad: Record<string, string> = {}
  const project = site.projects.get(projectKey)!
  const sp = site.storyPointsField?.id
  for (const [name, value] of Object.entries(fields)) {
    if (name === 'project' || name === 'issuetype') continue
    if (name === 'summary') {
      if (typeof value !== 'string' || value.trim() === '')
        bad.summary = 'You must specify a summary of the issue.'
      else if (value.length > 255) bad.summary = 'Summary must be less than 255 characters.'
      else out.summary = value
    } else if (name === 'description') {
      const doc = value as Obj | null
      if (doc !== null && (doc?.type !== 'doc' || doc.version !== 1 || !Array.isArray(doc.content)))
        bad.description = 'Operation value must be an Atlassian Document (see the Atlassian Document Format)'
      else out.description = doc
    } else if (name === 'labels') {
      const spaced = (value as string[]).find((l) => /\s/.test(l))
      if (spaced !== undefined) bad.labels = `The label '${spaced}' contains spaces which is invalid.`
      else out.labels = [...new Set(value as string[])]
    } else if (name === 'fixVersions') {
      const ids: string[] = []
      for (const v of value as Obj[]) {
        const found = site.versions.find(
          (x) =>
            x.projectId === project.id &&
            (x.id === String(v.id) || (v.id === undefined && x.name === v.name)),
        )
        if (found) ids.push(found.id)
        else
          bad.fixVersions =
            v.id !== undefined ? `Version id '${v.id}' is not valid` : `Version name '${v.name}' is not valid`
      }
      out.fixVersions = ids
    } else if (name === sp) {
      if (value !== null && typeof value !== 'number') bad[name] = 'Operation value must be a number'
      else out.storyPoints = value as number | null
    } else bad[name] = `Field '${name}' cannot be set. It is not on the appropriate screen, or unknown.`
  }
  if (creating && out.summary === undefined) bad.summary = 'You must specify a summary of the issue.'
  return Object.keys(bad).length > 0 ? { errors: bad } : { fields: out }
}

/** The changelog items of a change, as a webhook shows them. */
export function changelogItems(site: Site, issue: JiraIssue, changes: Partial<JiraIssue>): ChangeItem[] {
  const items: ChangeItem[] = []
  const shown = (field: keyof JiraIssue, v: unknown) =>
    field === 'statusId'
      ? statusOf(site, String(v)).name
      : field === 'description'
        ? plain(v)
        : Array.isArray(v)
          ? v.join(' ')
          : v === null
            ? null
            : String(v)
  const names: Record<string, string> = {
    statusId: 'status',
    fixVersions: 'Fix Version',
    storyPoints: site.storyPointsField?.name ?? 'Story points',
  }
  for (const [field, value] of Object.entries(changes) as [keyof JiraIssue, unknown][]) {
    if (value === undefined || JSON.stringify(value) === JSON.stringify(issue[field])) continue
    const status = field === 'statusId'
    items.push({
      field: names[field] ?? field,
      fieldtype: 'jira',
      fieldId: status ? 'status' : field,
      from: status ? String(issue[field]) : null,
      fromString: shown(field, issue[field]),
      to: status ? String(value) : null,
      toString: shown(field, value),
    })
  }
  return items
}

/** `POST /rest/api/3/search/jql` for an account: the status and body of the answer. */
export function searchIssues(
  site: Site,
  issues: Iterable<JiraIssue>,
  user: JiraUser,
  b: Obj,
): { status: number; body: unknown } {
  const jql = String(b.jql ?? '')
  let query
  try {
    query = parseJql(jql)
  } catch (e) {
    return { status: 400, body: { errorMessages: [(e as Error).message], errors: {} } }
  }
  let offset = 0
  if (b.nextPageToken !== undefined && b.nextPageToken !== null) {
    const token = JSON.parse(Buffer.from(String(b.nextPageToken), 'base64url').toString() || '{}') as {
      o?: number
      j?: string
    }
    if (token.j !== jql || typeof token.o !== 'number')
      return {
        status: 400,
        body: { errorMessages: ['The provided next page token is invalid or expired.'], errors: {} },
      }
    offset = token.o
  }
  const since = query.updatedSince ? wallToInstant(query.updatedSince.wall, user.timeZone) : null
  const order = query.order ?? { field: 'created', dir: -1 }
  const number = (key: string) => Number(key.split('-')[1])
  const list = [...new Set(issues)]
    .filter((i) => !i.deleted && user.permissions.get(i.projectKey)?.has('BROWSE_PROJECTS'))
    .filter((i) => query.project === null || i.projectKey === query.project)
    .filter((i) => since === null || i.updated >= since)
    .filter((i) => query.keys === null || query.keys.includes(i.key))
    .filter((i) => query.label === null || i.labels.includes(query.label))
    .filter(
      (i) =>
        query.category === null ||
        (statusOf(site, i.statusId).category === query.category.key) === (query.category.op === '='),
    )
    .sort((a, c) => {
      const x =
        order.field === 'updated'
          ? a.updated - c.updated
          : order.field === 'key'
            ? number(a.key) - number(c.key)
            : a.created - c.created
      return (x || Number(a.id) - Number(c.id)) * order.dir
    })
  const max = Math.min(100, Math.max(1, Number(b.maxResults ?? 50)))
  const page = list.slice(offset, offset + max)
  const more = offset + max < list.length
  const fields = Array.isArray(b.fields)
    ? (b.fields as string[])
    : typeof b.fields === 'string'
      ? b.fields.split(',')
      : ['id']
  return {
    status: 200,
    body: {
      issues: page.map((i) =>
        fields.length === 1 && fields[0] === 'id' ? { id: i.id } : issueJson(i, site, fields),
      ),
      ...(more
        ? { nextPageToken: Buffer.from(JSON.stringify({ o: offset + max, j: jql })).toString('base64url') }
        : {}),
      isLast: !more,
    },
  }
}

/** The text of an ADF document, as the v2 view of a webhook shows it (close enough to wiki markup for the fake). */
export function plain(doc: unknown): string | null {
  if (doc === null || doc === undefined) return null
  const walk = (n: Obj): string =>
    n.type === 'text'
      ? String(n.text ?? '')
      : (n.content ?? []).map(walk).join(n.type === 'doc' ? '\n\n' : '')
  return walk(doc as Obj)
}
