import type express from 'express'
import crypto from 'node:crypto'
import { FakeService, type FaultMatch } from './fake-service'
import {
  issueFields,
  issueJson,
  parseJql,
  projectJson,
  statusJson,
  userJson,
  versionJson,
  wallToInstant,
  type Category,
  type JiraIssue,
  type JiraStatus,
  type JiraTransitionDef,
  type JiraUser,
  type Site,
} from './fake-jira-shapes'

/**
 * A local stand-in for Jira Cloud's REST API v3 (the part CONTRACT §14 uses), reached by the real
 * `jira.js` client with `host` = `url`. Stateful: accounts (Basic auth, email and API token, with
 * a time zone JQL dates are read in, and project permissions), projects with issue types, versions,
 * a site-wide story-point field, a workflow (statuses with categories, transitions that can be
 * taken away), issues with ADF descriptions. `POST /rest/api/3/search/jql` understands the JQL the
 * connector writes and pages with `nextPageToken`. A test edits issues "in Jira" with `edit`,
 * `remove` and `moveAway`; every change is posted to the admin webhooks, signed with
 * `X-Hub-Signature: sha256=<hex HMAC-SHA256 of the body>`.
 */

const API = '/rest/api/3'
const ALL_PERMISSIONS = [
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
type Req = express.Request
type Res = express.Response
type Obj = Record<string, any>
type ChangeItem = {
  field: string
  fieldtype: string
  fieldId: string
  from: string | null
  fromString: string | null
  to: string | null
  toString: string | null
}

const errors = (
  res: Res,
  status: number,
  errorMessages: string[],
  fieldErrors: Record<string, string> = {},
) => res.status(status).json({ errorMessages, errors: fieldErrors })

export class FakeJira extends FakeService {
  private users = new Map<string, JiraUser & { token: string }>()
  private issuesByKey = new Map<string, JiraIssue>()
  private transitions: JiraTransitionDef[] = []
  private hooks: { url: string; secret: string; events: string[] }[] = []
  private ids = 10000
  site: Site = {
    url: '',
    statuses: [],
    projects: new Map(),
    versions: [],
    storyPointsField: { id: 'customfield_10016', name: 'Story point estimate' },
  }

  async start(options: { port?: number; prefix?: string } = {}) {
    await super.start(options)
    this.site.url = this.url
    this.setWorkflow(
      [
        { id: '10000', name: 'To Do', category: 'new' },
        { id: '3', name: 'In Progress', category: 'indeterminate' },
        { id: '10001', name: 'Done', category: 'done' },
      ],
      [
        { id: '11', name: 'To Do', to: '10000' },
        { id: '21', name: 'In Progress', to: '3' },
        { id: '31', name: 'Done', to: '10001' },
      ],
    )
    return this
  }

  protected routes(r: express.Router) {
    this.on(r, 'get', `${API}/myself`, (req, res) => res.json(userJson(this.userOf(req)!, this.url)))
    this.on(r, 'get', `${API}/project/:key`, (req, res) => {
      const project = this.projectFor(req, res)
      if (project) res.json(projectJson(project, this.site))
    })
    this.on(r, 'get', `${API}/project/:key/versions`, (req, res) => {
      const project = this.projectFor(req, res)
      if (project)
        res.json(
          this.site.versions.filter((v) => v.projectId === project.id).map((v) => versionJson(v, this.url)),
        )
    })
    this.on(r, 'post', `${API}/version`, (req, res) => {
      const b = req.body as Obj
      const project = [...this.site.projects.values()].find(
        (p) => p.id === String(b.projectId) || p.key === b.project,
      )
      if (!project) return errors(res, 400, [], { project: 'Project must be specified to create a version.' })
      const name = String(b.name ?? '').trim()
      if (name === '') return errors(res, 400, [], { name: 'You must specify a valid version name' })
      if (this.site.versions.some((v) => v.projectId === project.id && v.name === name))
        return errors(res, 400, [], { name: 'A version with this name already exists in this project.' })
      const version = {
        id: String(this.ids++),
        name,
        projectId: project.id,
        archived: false,
        released: false,
      }
      this.site.versions.push(version)
      res.status(201).json(versionJson(version, this.url))
    })
    this.on(r, 'get', `${API}/mypermissions`, (req, res) => {
      const wanted = String(req.query.permissions ?? '')
      if (wanted === '') return errors(res, 400, ['The permissions query parameter is required.'])
      const key = String(req.query.projectKey ?? '')
      if (key && !this.site.projects.has(key))
        return errors(res, 404, [`No project could be found with key '${key}'.`])
      const have = this.userOf(req)!.permissions.get(key) ?? new Set()
      const permissions = Object.fromEntries(
        wanted
          .split(',')
          .map((p) => [
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
      res.json({ permissions })
    })
    this.on(r, 'get', `${API}/field`, (_req, res) => {
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
      const sp = this.site.storyPointsField
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
      res.json([...system, ...custom, other])
    })
    this.on(r, 'post', `${API}/issue`, (req, res) => this.createIssue(req, res))
    this.on(r, 'get', `${API}/issue/:key`, (req, res) => {
      const issue = this.issueFor(req, res)
      const fields = req.query.fields === undefined ? null : String(req.query.fields).split(',')
      if (issue) res.json(issueJson(issue, this.site, fields))
    })
    this.on(r, 'put', `${API}/issue/:key`, (req, res) => {
      const issue = this.issueFor(req, res)
      if (!issue || !this.may(req, res, issue.projectKey, 'EDIT_ISSUES', 'edit issues in this project'))
        return
      const fields = this.checkedFields(res, issue.projectKey, (req.body as Obj).fields ?? {}, false)
      if (!fields) return
      this.change(issue, fields, this.userOf(req)!)
      res.status(204).end()
    })
    this.on(r, 'delete', `${API}/issue/:key`, (req, res) => {
      const issue = this.issueFor(req, res)
      if (!issue || !this.may(req, res, issue.projectKey, 'DELETE_ISSUES', 'delete issues in this project'))
        return
      this.removeIssue(issue, this.userOf(req)!)
      res.status(204).end()
    })
    this.on(r, 'get', `${API}/issue/:key/transitions`, (req, res) => {
      const issue = this.issueFor(req, res)
      if (!issue) return
      const transitions = this.transitions
        .filter((t) => t.to !== issue.statusId)
        .map((t) => ({
          id: t.id,
          name: t.name,
          to: statusJson(this.status(t.to), this.url),
          hasScreen: false,
          isGlobal: true,
          isInitial: false,
          isAvailable: true,
          isConditional: false,
          isLooped: false,
        }))
      res.json({ expand: 'transitions', transitions })
    })
    this.on(r, 'post', `${API}/issue/:key/transitions`, (req, res) => {
      const issue = this.issueFor(req, res)
      if (!issue || !this.may(req, res, issue.projectKey, 'TRANSITION_ISSUES', 'transition this issue'))
        return
      const id = String((req.body as Obj).transition?.id ?? '')
      const transition = this.transitions.find((t) => t.id === id && t.to !== issue.statusId)
      if (!transition) return errors(res, 400, [`Transition id '${id}' is not valid for this issue.`])
      this.change(issue, { statusId: transition.to }, this.userOf(req)!)
      res.status(204).end()
    })
    this.on(r, 'post', `${API}/search/jql`, (req, res) => this.search(req, res))
  }

  protected notFound(res: Res) {
    errors(res, 404, ['Not found'])
  }

  protected failure(status: number) {
    if (status === 401)
      return { type: 'text/plain', body: 'Client must be authenticated to access this resource.' }
    if (status === 429)
      return {
        type: 'application/json',
        body: JSON.stringify({ errorMessages: ['Rate limit exceeded.'], errors: {} }),
      }
    return {
      type: 'application/json',
      body: JSON.stringify({ errorMessages: [`Internal server error (${status}).`], errors: {} }),
    }
  }

  protected everyAnswer(res: Res) {
    res.setHeader('X-RateLimit-NearLimit', 'false')
  }

  protected authenticate(req: Req, res: Res) {
    if (this.userOf(req)) return true
    res.status(401).type('text/plain').send('Client must be authenticated to access this resource.')
    return false
  }

  // ---- set-up

  /** An account (`email` + API token) in a time zone, with every project permission unless some are named. */
  addUser(
    email: string,
    token: string,
    options: { timeZone?: string; displayName?: string; permissions?: Record<string, string[]> } = {},
  ) {
    const permissions = new Map<string, Set<string>>()
    for (const key of this.site.projects.keys())
      permissions.set(key, new Set(options.permissions?.[key] ?? ALL_PERMISSIONS))
    for (const [key, list] of Object.entries(options.permissions ?? {})) permissions.set(key, new Set(list))
    const user = {
      accountId: `5b10ac8d82e05b22cc7d${this.ids++}`,
      email,
      token,
      displayName: options.displayName ?? 'Ada Lovelace',
      timeZone: options.timeZone ?? 'UTC',
      permissions,
    }
    this.users.set(email, user)
    return user
  }

  /** A project (before its users) with issue types (Story, Task, Bug, Sub-task unless named). */
  addProject(key: string, options: { name?: string; issueTypes?: string[] } = {}) {
    const types = (options.issueTypes ?? ['Story', 'Task', 'Bug', 'Sub-task']).map((name) => ({
      id: String(this.ids++),
      name,
      subtask: name === 'Sub-task',
    }))
    this.site.projects.set(key, {
      id: String(this.ids++),
      key,
      name: options.name ?? key,
      issueTypes: types,
      next: 1,
    })
  }

  /** The site's story-point field: its name (`Story point estimate`, `Story Points`…), or none. */
  setStoryPointsField(name: string | null) {
    this.site.storyPointsField =
      name === null ? null : { id: name === 'Story Points' ? 'customfield_10028' : 'customfield_10016', name }
  }

  /** The statuses and the (global) transitions to them. */
  setWorkflow(statuses: JiraStatus[], transitions: JiraTransitionDef[]) {
    this.site.statuses = statuses
    this.transitions = transitions
  }

  /** Takes away every transition to a status of this category (e.g. no way to `done`). */
  removeTransitionsTo(category: Category) {
    this.transitions = this.transitions.filter((t) => this.status(t.to).category !== category)
  }

  /** An admin webhook with a secret, for these events. */
  addWebhook(
    url: string,
    secret: string,
    events = ['jira:issue_created', 'jira:issue_updated', 'jira:issue_deleted'],
  ) {
    this.hooks.push({ url, secret, events })
  }

  /** The next calls whose path matches answer 429 with `Retry-After` (seconds). */
  rateLimitNext(path: RegExp, how: { retryAfter: number }, match: FaultMatch = {}) {
    this.rateLimit(
      path,
      {
        'Retry-After': String(how.retryAfter),
        'X-RateLimit-Limit': '350',
        'X-RateLimit-Remaining': '0',
        'RateLimit-Reason': 'jira-quota-tenant-based',
      },
      match,
    )
  }

  /** An issue made without any webhook (the state a test starts from). */
  seedIssue(
    projectKey: string,
    fields: {
      summary: string
      description?: unknown
      labels?: string[]
      status?: string
      storyPoints?: number | null
    },
  ) {
    const project = this.site.projects.get(projectKey)!
    const issue = this.makeIssue(project.key, {
      summary: fields.summary,
      description: fields.description ?? null,
      labels: fields.labels ?? [],
      issueTypeId: project.issueTypes[0].id,
    })
    if (fields.status) issue.statusId = this.statusNamed(fields.status).id
    if (fields.storyPoints !== undefined) issue.storyPoints = fields.storyPoints
    return this.issue(issue.key)!
  }

  // ---- "in Jira": what a person does there (each posts the webhooks, awaited)

  async edit(
    key: string,
    changes: {
      summary?: string
      description?: unknown
      labels?: string[]
      status?: string
      storyPoints?: number | null
    },
  ) {
    const issue = this.issuesByKey.get(key)!
    const { status, storyPoints, ...rest } = changes
    this.change(
      issue,
      {
        ...rest,
        ...(status ? { statusId: this.statusNamed(status).id } : {}),
        ...(storyPoints !== undefined ? { storyPoints } : {}),
      },
      this.admin(),
    )
    await this.settled()
    return this.issue(issue.key)!
  }

  async remove(key: string) {
    this.removeIssue(this.issuesByKey.get(key)!, this.admin())
    await this.settled()
  }

  /** The issue moves to another project: a new key, the old one still leads to it. */
  moveAway(key: string, toProjectKey: string) {
    const issue = this.issuesByKey.get(key)!
    const project = this.site.projects.get(toProjectKey)!
    issue.projectKey = project.key
    issue.key = `${project.key}-${project.next++}`
    issue.issueTypeId = project.issueTypes[0].id
    issue.fixVersions = []
    issue.updated = this.now()
    this.issuesByKey.set(issue.key, issue)
    return issue.key
  }

  // ---- reading the state

  issue(key: string) {
    const issue = this.issuesByKey.get(key)
    return issue && !issue.deleted ? issueJson(issue, this.site, null) : undefined
  }
  issues(projectKey: string) {
    return [...new Set(this.issuesByKey.values())]
      .filter((i) => i.projectKey === projectKey && !i.deleted)
      .map((i) => issueJson(i, this.site, null))
  }
  versions(projectKey: string) {
    const project = this.site.projects.get(projectKey)!
    return this.site.versions.filter((v) => v.projectId === project.id).map((v) => versionJson(v, this.url))
  }

  // ---- the server's side

  private userOf(req: Req) {
    const m = /^Basic\s+(.+)$/i.exec(req.header('authorization') ?? '')
    if (!m) return undefined
    const decoded = Buffer.from(m[1], 'base64').toString('utf8')
    const at = decoded.indexOf(':')
    const user = this.users.get(decoded.slice(0, at))
    return user && user.token === decoded.slice(at + 1) ? user : undefined
  }

  private admin(): JiraUser {
    return {
      accountId: '557058:admin',
      email: 'admin@example.com',
      displayName: 'Site Admin',
      timeZone: 'UTC',
      permissions: new Map(),
    }
  }

  private status(id: string) {
    return this.site.statuses.find((s) => s.id === id)!
  }
  private statusNamed(name: string) {
    const status = this.site.statuses.find((s) => s.name === name)
    if (!status) throw new Error(`no status ${name}`)
    return status
  }

  private projectFor(req: Req, res: Res) {
    const project =
      this.site.projects.get(String(req.params.key).toUpperCase()) ??
      [...this.site.projects.values()].find((p) => p.id === req.params.key)
    if (!project || !this.userOf(req)!.permissions.get(project.key)?.has('BROWSE_PROJECTS')) {
      errors(res, 404, [`No project could be found with key '${req.params.key}'.`])
      return undefined
    }
    return project
  }

  private issueFor(req: Req, res: Res) {
    const issue =
      this.issuesByKey.get(String(req.params.key)) ??
      [...this.issuesByKey.values()].find((i) => i.id === req.params.key)
    if (
      !issue ||
      issue.deleted ||
      !this.userOf(req)!.permissions.get(issue.projectKey)?.has('BROWSE_PROJECTS')
    ) {
      errors(res, 404, ['Issue does not exist or you do not have permission to see it.'])
      return undefined
    }
    return issue
  }

  private may(req: Req, res: Res, projectKey: string, permission: string, what: string) {
    if (this.userOf(req)!.permissions.get(projectKey)?.has(permission)) return true
    errors(res, 403, [`You do not have permission to ${what}.`])
    return false
  }

  /** The fields of a create or edit, checked as Jira checks them; answers 400 and null when one is wrong. */
  private checkedFields(
    res: Res,
    projectKey: string,
    fields: Obj,
    creating: boolean,
  ): Partial<JiraIssue> | null {
    const out: Partial<JiraIssue> = {}
    const bad: Record<string, string> = {}
    const project = this.site.projects.get(projectKey)!
    const sp = this.site.storyPointsField?.id
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
          bad.description =
            'Operation value must be an Atlassian Document (see the Atlassian Document Format)'
        else out.description = doc
      } else if (name === 'labels') {
        const spaced = (value as string[]).find((l) => /\s/.test(l))
        if (spaced !== undefined) bad.labels = `The label '${spaced}' contains spaces which is invalid.`
        else out.labels = [...new Set(value as string[])]
      } else if (name === 'fixVersions') {
        const ids: string[] = []
        for (const v of value as Obj[]) {
          const found = this.site.versions.find(
            (x) =>
              x.projectId === project.id &&
              (x.id === String(v.id) || (v.id === undefined && x.name === v.name)),
          )
          if (found) ids.push(found.id)
          else
            bad.fixVersions =
              v.id !== undefined
                ? `Version id '${v.id}' is not valid`
                : `Version name '${v.name}' is not valid`
        }
        out.fixVersions = ids
      } else if (name === sp) {
        if (value !== null && typeof value !== 'number') bad[name] = 'Operation value must be a number'
        else out.storyPoints = value as number | null
      } else bad[name] = `Field '${name}' cannot be set. It is not on the appropriate screen, or unknown.`
    }
    if (creating && out.summary === undefined) bad.summary = 'You must specify a summary of the issue.'
    if (Object.keys(bad).length > 0) {
      errors(res, 400, [], bad)
      return null
    }
    return out
  }

  private createIssue(req: Req, res: Res) {
    const fields = ((req.body as Obj).fields ?? {}) as Obj
    const project =
      this.site.projects.get(fields.project?.key) ??
      [...this.site.projects.values()].find((p) => p.id === String(fields.project?.id))
    if (!project) return errors(res, 400, [], { project: 'Specify a valid project ID or key' })
    if (!this.may(req, res, project.key, 'CREATE_ISSUES', 'create issues in this project')) return
    const type = project.issueTypes.find(
      (t) => t.id === String(fields.issuetype?.id) || t.name === fields.issuetype?.name,
    )
    if (!type) return errors(res, 400, [], { issuetype: 'Specify an issue type' })
    const checked = this.checkedFields(res, project.key, fields, true)
    if (!checked) return
    const issue = this.makeIssue(project.key, {
      summary: checked.summary!,
      description: checked.description ?? null,
      labels: checked.labels ?? [],
      issueTypeId: type.id,
    })
    Object.assign(issue, { fixVersions: checked.fixVersions ?? [], storyPoints: checked.storyPoints ?? null })
    this.post('jira:issue_created', issue, this.userOf(req)!, null)
    res.status(201).json({ id: issue.id, key: issue.key, self: `${this.url}${API}/issue/${issue.id}` })
  }

  private makeIssue(
    projectKey: string,
    f: { summary: string; description: unknown; labels: string[]; issueTypeId: string },
  ) {
    const project = this.site.projects.get(projectKey)!
    const at = this.now()
    const issue: JiraIssue = {
      id: String(this.ids++),
      key: `${project.key}-${project.next++}`,
      projectKey,
      ...f,
      fixVersions: [],
      storyPoints: null,
      statusId: this.site.statuses.find((s) => s.category === 'new')!.id,
      created: at,
      updated: at,
      deleted: false,
    }
    this.issuesByKey.set(issue.key, issue)
    return issue
  }

  private change(issue: JiraIssue, changes: Partial<JiraIssue>, by: JiraUser) {
    const items: ChangeItem[] = []
    const shown = (field: keyof JiraIssue, v: unknown) =>
      field === 'statusId'
        ? this.status(String(v)).name
        : field === 'description'
          ? plain(v)
          : Array.isArray(v)
            ? v.join(' ')
            : v === null
              ? null
              : String(v)
    for (const [field, value] of Object.entries(changes) as [keyof JiraIssue, unknown][]) {
      if (value === undefined || JSON.stringify(value) === JSON.stringify(issue[field])) continue
      const name =
        {
          statusId: 'status',
          summary: 'summary',
          description: 'description',
          labels: 'labels',
          fixVersions: 'Fix Version',
          storyPoints: this.site.storyPointsField?.name ?? 'Story points',
        }[field as string] ?? String(field)
      const from = issue[field]
      items.push({
        field: name,
        fieldtype: 'jira',
        fieldId: field === 'statusId' ? 'status' : String(field),
        from: field === 'statusId' ? String(from) : null,
        fromString: shown(field, from),
        to: field === 'statusId' ? String(value) : null,
        toString: shown(field, value),
      })
      ;(issue as Obj)[field] = value
    }
    if (items.length === 0) return
    issue.updated = this.now()
    this.post('jira:issue_updated', issue, by, { id: String(this.ids++), items })
  }

  private removeIssue(issue: JiraIssue, by: JiraUser) {
    issue.deleted = true
    this.post('jira:issue_deleted', issue, by, null)
  }

  private post(
    event: string,
    issue: JiraIssue,
    by: JiraUser,
    changelog: { id: string; items: ChangeItem[] } | null,
  ) {
    // Webhooks carry the REST API v2 view of fields: text fields as strings, not ADF.
    const fields = {
      ...issueFields(issue, this.site),
      description: issue.description === null ? null : plain(issue.description),
    }
    const body = JSON.stringify({
      timestamp: this.now(),
      webhookEvent: event,
      issue_event_type_name: event === 'jira:issue_updated' ? 'issue_generic' : event.replace('jira:', ''),
      user: userJson({ ...by, permissions: new Map() }, this.url),
      issue: { id: issue.id, self: `${this.url}/rest/api/2/issue/${issue.id}`, key: issue.key, fields },
      ...(changelog ? { changelog } : {}),
    })
    for (const hook of this.hooks.filter((h) => h.events.includes(event))) {
      const signature = crypto.createHmac('sha256', hook.secret).update(body).digest('hex')
      void this.deliver(
        hook.url,
        {
          'Content-Type': 'application/json; charset=utf-8',
          'User-Agent': 'Atlassian Webhook HTTP Client',
          'X-Atlassian-Webhook-Identifier': String(this.ids++),
          'X-Hub-Signature': `sha256=${signature}`,
        },
        body,
      )
    }
  }

  private search(req: Req, res: Res) {
    const b = req.body as Obj
    const jql = String(b.jql ?? '')
    let query
    try {
      query = parseJql(jql)
    } catch (e) {
      return errors(res, 400, [(e as Error).message])
    }
    let offset = 0
    if (b.nextPageToken !== undefined && b.nextPageToken !== null) {
      const token = JSON.parse(Buffer.from(String(b.nextPageToken), 'base64url').toString() || '{}') as {
        o?: number
        j?: string
      }
      if (token.j !== jql || typeof token.o !== 'number')
        return errors(res, 400, ['The provided next page token is invalid or expired.'])
      offset = token.o
    }
    const user = this.userOf(req)!
    const since = query.updatedSince ? wallToInstant(query.updatedSince.wall, user.timeZone) : null
    const order = query.order ?? { field: 'created', dir: -1 }
    const number = (key: string) => Number(key.split('-')[1])
    const list = [...new Set(this.issuesByKey.values())]
      .filter((i) => !i.deleted && user.permissions.get(i.projectKey)?.has('BROWSE_PROJECTS'))
      .filter((i) => query.project === null || i.projectKey === query.project)
      .filter((i) => since === null || i.updated >= since)
      .filter((i) => query.keys === null || query.keys.includes(i.key))
      .filter((i) => query.label === null || i.labels.includes(query.label))
      .filter(
        (i) =>
          query.category === null ||
          (this.status(i.statusId).category === query.category.key) === (query.category.op === '='),
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
    res.json({
      issues: page.map((i) =>
        fields.length === 1 && fields[0] === 'id' ? { id: i.id } : issueJson(i, this.site, fields),
      ),
      ...(more
        ? { nextPageToken: Buffer.from(JSON.stringify({ o: offset + max, j: jql })).toString('base64url') }
        : {}),
      isLast: !more,
    })
  }
}

/** The text of an ADF document, as the v2 view of a webhook shows it (close enough to wiki markup for the fake). */
function plain(doc: unknown): string | null {
  if (doc === null || doc === undefined) return null
  const walk = (n: Obj): string =>
    n.type === 'text'
      ? String(n.text ?? '')
      : (n.content ?? []).map(walk).join(n.type === 'doc' ? '\n\n' : '')
  return walk(doc as Obj)
}
