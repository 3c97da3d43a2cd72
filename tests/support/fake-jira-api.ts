import type express from 'express'
import crypto from 'node:crypto'
import { FakeService } from './fake-service'
import {
  changelogItems,
  checkFields,
  permissionsJson,
  plain,
  searchIssues,
  statusOf,
  type ChangeItem,
} from './fake-jira-rules'
import {
  fieldsJson,
  issueFields,
  issueJson,
  projectJson,
  statusJson,
  userJson,
  versionJson,
  type JiraIssue,
  type JiraStatus,
  type JiraTransitionDef,
  type JiraUser,
  type Site,
} from './fake-jira-shapes'

/**
 * The API side of the fake Jira Cloud (tests use FakeJira, fake-jira.ts): REST API v3 as `jira.js`
 * calls it. Basic auth (email and API token); `myself`, projects with issue types, versions,
 * `mypermissions`, `field`, issues with ADF descriptions, transitions, and `POST search/jql` with
 * the JQL the connector writes, paged with `nextPageToken`. Every change is posted to the admin
 * webhooks, signed with `X-Hub-Signature: sha256=<hex HMAC-SHA256 of the body>`.
 */

const API = '/rest/api/3'
/** A company-managed project's simple workflow: global transitions to each status. */
export const DEFAULT_STATUSES: JiraStatus[] = [
  { id: '10000', name: 'To Do', category: 'new' },
  { id: '3', name: 'In Progress', category: 'indeterminate' },
  { id: '10001', name: 'Done', category: 'done' },
]
export const DEFAULT_TRANSITIONS: JiraTransitionDef[] = [
  { id: '11', name: 'To Do', to: '10000' },
  { id: '21', name: 'In Progress', to: '3' },
  { id: '31', name: 'Done', to: '10001' },
]
type Req = express.Request
type Res = express.Response
type Obj = Record<string, any>

const errors = (
  res: Res,
  status: number,
  errorMessages: string[],
  fieldErrors: Record<string, string> = {},
) => res.status(status).json({ errorMessages, errors: fieldErrors })

export class JiraApi extends FakeService {
  protected users = new Map<string, JiraUser & { token: string }>()
  protected issuesByKey = new Map<string, JiraIssue>()
  protected transitions: JiraTransitionDef[] = []
  protected hooks: { url: string; secret: string; events: string[] }[] = []
  protected ids = 10000
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
    this.site.statuses = [...DEFAULT_STATUSES]
    this.transitions = [...DEFAULT_TRANSITIONS]
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
      res.json(permissionsJson(wanted.split(','), this.userOf(req)!.permissions.get(key) ?? new Set()))
    })
    this.on(r, 'get', `${API}/field`, (_req, res) => res.json(fieldsJson(this.site)))
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
      const checked = checkFields(this.site, issue.projectKey, (req.body as Obj).fields ?? {}, false)
      if ('errors' in checked) return errors(res, 400, [], checked.errors)
      this.change(issue, checked.fields, this.userOf(req)!)
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
          to: statusJson(statusOf(this.site, t.to), this.url),
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
    this.on(r, 'post', `${API}/search/jql`, (req, res) => {
      const { status, body } = searchIssues(
        this.site,
        this.issuesByKey.values(),
        this.userOf(req)!,
        req.body as Obj,
      )
      res.status(status).json(body)
    })
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

  // ---- the server's side

  protected userOf(req: Req) {
    const m = /^Basic\s+(.+)$/i.exec(req.header('authorization') ?? '')
    if (!m) return undefined
    const decoded = Buffer.from(m[1], 'base64').toString('utf8')
    const at = decoded.indexOf(':')
    const user = this.users.get(decoded.slice(0, at))
    return user && user.token === decoded.slice(at + 1) ? user : undefined
  }

  protected admin(): JiraUser {
    return {
      accountId: '557058:admin',
      email: 'admin@example.com',
      displayName: 'Site Admin',
      timeZone: 'UTC',
      permissions: new Map(),
    }
  }

  protected statusNamed(name: string) {
    const status = this.site.statuses.find((s) => s.name === name)
    if (!status) throw new Error(`no status ${name}`)
    return status
  }

  protected projectFor(req: Req, res: Res) {
    const project =
      this.site.projects.get(String(req.params.key).toUpperCase()) ??
      [...this.site.projects.values()].find((p) => p.id === req.params.key)
    if (!project || !this.userOf(req)!.permissions.get(project.key)?.has('BROWSE_PROJECTS')) {
      errors(res, 404, [`No project could be found with key '${req.params.key}'.`])
      return undefined
    }
    return project
  }

  protected issueFor(req: Req, res: Res) {
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

  protected may(req: Req, res: Res, projectKey: string, permission: string, what: string) {
    if (this.userOf(req)!.permissions.get(projectKey)?.has(permission)) return true
    errors(res, 403, [`You do not have permission to ${what}.`])
    return false
  }

  protected createIssue(req: Req, res: Res) {
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
    const result = checkFields(this.site, project.key, fields, true)
    if ('errors' in result) return errors(res, 400, [], result.errors)
    const checked = result.fields
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

  protected makeIssue(
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

  protected change(issue: JiraIssue, changes: Partial<JiraIssue>, by: JiraUser) {
    const items = changelogItems(this.site, issue, changes)
    if (items.length === 0) return
    Object.assign(issue, Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)))
    issue.updated = this.now()
    this.post('jira:issue_updated', issue, by, { id: String(this.ids++), items })
  }

  protected removeIssue(issue: JiraIssue, by: JiraUser) {
    issue.deleted = true
    this.post('jira:issue_deleted', issue, by, null)
  }

  protected post(
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
}
