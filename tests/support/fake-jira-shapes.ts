/**
 * The state of the fake Jira Cloud (fake-jira.ts), the JSON it answers with (REST API v3 shapes:
 * the fields Storymap reads and the common ones around them), and the part of JQL it understands.
 */

export type Category = 'new' | 'indeterminate' | 'done'
export type JiraStatus = { id: string; name: string; category: Category }
export type JiraTransitionDef = { id: string; name: string; to: string }
export type JiraUser = {
  accountId: string
  email: string
  displayName: string
  timeZone: string
  /** Project permissions by project key. */
  permissions: Map<string, Set<string>>
}
export type JiraVersion = {
  id: string
  name: string
  projectId: string
  archived: boolean
  released: boolean
}
export type JiraProject = {
  id: string
  key: string
  name: string
  issueTypes: { id: string; name: string; subtask: boolean }[]
  next: number
}
export type JiraIssue = {
  id: string
  key: string
  projectKey: string
  summary: string
  description: unknown
  labels: string[]
  fixVersions: string[]
  storyPoints: number | null
  statusId: string
  issueTypeId: string
  created: number
  updated: number
  deleted: boolean
}
export type Site = {
  url: string
  statuses: JiraStatus[]
  projects: Map<string, JiraProject>
  versions: JiraVersion[]
  storyPointsField: { id: string; name: string } | null
}

/** Jira's times: `2026-11-27T10:00:00.000+0000`. */
export const jiraTime = (ms: number) => new Date(ms).toISOString().replace('Z', '+0000')

const CATEGORIES: Record<Category, { id: number; colorName: string; name: string }> = {
  new: { id: 2, colorName: 'blue-gray', name: 'To Do' },
  indeterminate: { id: 4, colorName: 'yellow', name: 'In Progress' },
  done: { id: 3, colorName: 'green', name: 'Done' },
}

export const statusJson = (s: JiraStatus, url: string) => ({
  self: `${url}/rest/api/3/status/${s.id}`,
  description: '',
  iconUrl: `${url}/images/icons/statuses/generic.png`,
  name: s.name,
  id: s.id,
  statusCategory: {
    self: `${url}/rest/api/3/statuscategory/${CATEGORIES[s.category].id}`,
    key: s.category,
    ...CATEGORIES[s.category],
  },
})

export const userJson = (u: JiraUser, url: string) => ({
  self: `${url}/rest/api/3/user?accountId=${u.accountId}`,
  accountId: u.accountId,
  accountType: 'atlassian',
  emailAddress: u.email,
  avatarUrls: {
    '48x48': `${url}/avatar/48.png`,
    '24x24': `${url}/avatar/24.png`,
    '16x16': `${url}/avatar/16.png`,
    '32x32': `${url}/avatar/32.png`,
  },
  displayName: u.displayName,
  active: true,
  timeZone: u.timeZone,
  locale: 'en_US',
})

export const versionJson = (v: JiraVersion, url: string) => ({
  self: `${url}/rest/api/3/version/${v.id}`,
  id: v.id,
  name: v.name,
  archived: v.archived,
  released: v.released,
  projectId: Number(v.projectId),
})

const issueTypeJson = (t: JiraProject['issueTypes'][number], url: string) => ({
  self: `${url}/rest/api/3/issuetype/${t.id}`,
  id: t.id,
  description: '',
  iconUrl: `${url}/images/icons/issuetypes/${t.name.toLowerCase()}.svg`,
  name: t.name,
  subtask: t.subtask,
  hierarchyLevel: t.subtask ? -1 : 0,
})

export const projectJson = (p: JiraProject, site: Site) => ({
  expand: 'description,lead,issueTypes,url,projectKeys,permissions,insight',
  self: `${site.url}/rest/api/3/project/${p.id}`,
  id: p.id,
  key: p.key,
  name: p.name,
  description: '',
  issueTypes: p.issueTypes.map((t) => issueTypeJson(t, site.url)),
  versions: site.versions.filter((v) => v.projectId === p.id).map((v) => versionJson(v, site.url)),
  projectTypeKey: 'software',
  simplified: false,
  style: 'classic',
  isPrivate: false,
  properties: {},
})

/** Every field of an issue, as `GET /rest/api/3/issue/{key}` shows them. */
export function issueFields(i: JiraIssue, site: Site): Record<string, unknown> {
  const project = site.projects.get(i.projectKey)!
  const type = project.issueTypes.find((t) => t.id === i.issueTypeId)!
  const fields: Record<string, unknown> = {
    summary: i.summary,
    description: i.description,
    labels: i.labels,
    fixVersions: i.fixVersions.map((id) =>
      versionJson(
        site.versions.find((v) => v.id === id)!,
        site.url,
      ),
    ),
    status: statusJson(
      site.statuses.find((s) => s.id === i.statusId)!,
      site.url,
    ),
    issuetype: issueTypeJson(type, site.url),
    project: {
      self: `${site.url}/rest/api/3/project/${project.id}`,
      id: project.id,
      key: project.key,
      name: project.name,
      projectTypeKey: 'software',
      simplified: false,
    },
    created: jiraTime(i.created),
    updated: jiraTime(i.updated),
    statuscategorychangedate: jiraTime(i.updated),
  }
  if (site.storyPointsField) fields[site.storyPointsField.id] = i.storyPoints
  return fields
}

/** An issue with the fields asked for (`*all` or none named: all; `id` alone: no fields). */
export function issueJson(i: JiraIssue, site: Site, wanted: string[] | null) {
  const all = issueFields(i, site)
  const base = {
    expand: 'renderedFields,names,schema,operations,editmeta,changelog,versionedRepresentations',
    id: i.id,
    self: `${site.url}/rest/api/3/issue/${i.id}`,
    key: i.key,
  }
  if (wanted === null || wanted.includes('*all') || wanted.includes('*navigable'))
    return { ...base, fields: all }
  const picked = Object.fromEntries(Object.entries(all).filter(([k]) => wanted.includes(k)))
  return { ...base, fields: picked }
}

// ---- JQL, as far as the connector writes it

export type JqlQuery = {
  project: string | null
  updatedSince: { wall: string } | null
  category: { op: '=' | '!='; key: Category } | null
  keys: string[] | null
  label: string | null
  order: { field: 'updated' | 'key' | 'created'; dir: 1 | -1 } | null
}

const CATEGORY_NAMES: Record<string, Category> = {
  'to do': 'new',
  new: 'new',
  'in progress': 'indeterminate',
  indeterminate: 'indeterminate',
  done: 'done',
  complete: 'done',
}
const DATE = /^\d{4}[-/]\d{2}[-/]\d{2}(?: \d{2}:\d{2})?$/

/** Parses `project = "KEY" AND updated >= "yyyy-MM-dd HH:mm" ORDER BY updated ASC` and its kin; throws Jira's message. */
export function parseJql(jql: string): JqlQuery {
  const query: JqlQuery = {
    project: null,
    updatedSince: null,
    category: null,
    keys: null,
    label: null,
    order: null,
  }
  const [where, order] = jql.split(/\s+ORDER\s+BY\s+/i)
  if (order !== undefined) {
    const m = /^(updated|key|created)(?:\s+(ASC|DESC))?\s*$/i.exec(order.trim())
    if (!m) throw new Error(`Error in the JQL Query: Expecting a field name but got '${order.trim()}'.`)
    query.order = { field: m[1].toLowerCase() as 'updated', dir: m[2]?.toUpperCase() === 'DESC' ? -1 : 1 }
  }
  for (const clause of where.trim() === '' ? [] : where.split(/\s+AND\s+/i)) {
    const c = clause.trim()
    let m: RegExpExecArray | null
    if ((m = /^project\s*=\s*"?([A-Za-z][A-Za-z0-9_]*)"?$/i.exec(c))) query.project = m[1].toUpperCase()
    else if ((m = /^updated\s*>=\s*"([^"]*)"$/i.exec(c))) {
      if (!DATE.test(m[1]))
        throw new Error(
          `Date value '${m[1]}' for field 'updated' is invalid. Valid formats include: 'yyyy/MM/dd HH:mm', 'yyyy-MM-dd HH:mm', 'yyyy/MM/dd', 'yyyy-MM-dd', or a period format e.g. '-5d', '4w 2d'.`,
        )
      query.updatedSince = { wall: m[1].replaceAll('/', '-') }
    } else if (
      (m = /^statusCategory\s*(=|!=)\s*"?([A-Za-z ]+?)"?$/i.exec(c)) &&
      CATEGORY_NAMES[m[2].toLowerCase()]
    )
      query.category = { op: m[1] as '=', key: CATEGORY_NAMES[m[2].toLowerCase()] }
    else if ((m = /^key\s+in\s*\(([^)]*)\)$/i.exec(c)))
      query.keys = m[1].split(',').map((k) => k.trim().replace(/"/g, '').toUpperCase())
    else if ((m = /^labels\s*=\s*"?([^"]+?)"?$/i.exec(c))) query.label = m[1]
    else throw new Error(`Error in the JQL Query: The field in '${c}' is not understood by this fake.`)
  }
  return query
}

/** The instant a wall-clock time (`yyyy-MM-dd[ HH:mm]`) names in a time zone. */
export function wallToInstant(wall: string, timeZone: string): number {
  const [date, time = '00:00'] = wall.split(' ')
  const [y, mo, d] = date.split('-').map(Number)
  const [h, mi] = time.split(':').map(Number)
  const guess = Date.UTC(y, mo - 1, d, h, mi)
  const offsetAt = (t: number) => {
    const parts = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    }).formatToParts(new Date(t))
    const n = (type: string) => Number(parts.find((p) => p.type === type)!.value)
    return Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'), n('second')) - t
  }
  const first = guess - offsetAt(guess)
  return guess - offsetAt(first)
}

/** `GET /rest/api/3/field`: some system fields, the story-point field when the site has one, and Sprint. */
export function fieldsJson(site: Site) {
  const system = [
    ['summary', 'Summary', 'string'],
    ['description', 'Description', 'string'],
    ['labels', 'Labels', 'array'],
    ['fixVersions', 'Fix versions', 'array'],
    ['status', 'Status', 'status'],
    ['updated', 'Updated', 'datetime'],
  ].map(([id, name, type]) => ({
    id,
    key: id,
    name,
    custom: false,
    orderable: true,
    navigable: true,
    searchable: true,
    clauseNames: [id],
    schema: { type, system: id },
  }))
  const sp = site.storyPointsField
  const custom = sp
    ? [
        {
          id: sp.id,
          key: sp.id,
          name: sp.name,
          untranslatedName: sp.name,
          custom: true,
          orderable: true,
          navigable: true,
          searchable: true,
          clauseNames: [`cf[${sp.id.split('_')[1]}]`, sp.name],
          schema: {
            type: 'number',
            custom: 'com.pyxis.greenhopper.jira:jsw-story-points',
            customId: Number(sp.id.split('_')[1]),
          },
        },
      ]
    : []
  const other = {
    id: 'customfield_10020',
    key: 'customfield_10020',
    name: 'Sprint',
    custom: true,
    orderable: true,
    navigable: true,
    searchable: true,
    clauseNames: ['Sprint'],
    schema: {
      type: 'array',
      items: 'json',
      custom: 'com.pyxis.greenhopper.jira:gh-sprint',
      customId: 10020,
    },
  }
  return [...system, ...custom, other]
}
