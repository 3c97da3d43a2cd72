import type express from 'express'
import { pageOf } from './fake-service'
import {
  iso,
  type GitlabIssue,
  type GitlabProject,
  type GitlabToken,
  type GitlabUser,
  type HookChanges,
} from './fake-gitlab-shapes'

/**
 * What the fake GitLab (fake-gitlab.ts) holds: projects, tokens, issues, labels and milestones,
 * and how they change as GitLab changes them (labels made when an issue names them, `closed_at`,
 * `updated_at`, the hook's `changes`).
 */

type Req = express.Request
type Res = express.Response

export class GitlabStore {
  readonly projects = new Map<string, GitlabProject>()
  readonly tokens = new Map<string, GitlabToken>()
  ids = 100

  constructor(private clock: () => number) {}

  project(path: string) {
    const project = this.projects.get(path.toLowerCase())
    if (!project) throw new Error(`no project ${path}`)
    return project
  }

  /** A project by `:id`: its number or its full path. */
  projectByRef(ref: string) {
    return /^\d+$/.test(ref)
      ? [...this.projects.values()].find((p) => p.id === Number(ref))
      : this.projects.get(ref.toLowerCase())
  }

  /** A milestone id from a request: null unassigns (0, null, ''), undefined when unknown. */
  milestoneIdOf(project: GitlabProject, value: unknown): number | null | undefined {
    if (value === undefined || value === null || value === '' || Number(value) === 0) return null
    return project.milestones.find((m) => m.id === Number(value))?.id
  }

  milestoneNamed(project: GitlabProject, title: string) {
    let milestone = project.milestones.find((m) => m.title === title)
    if (!milestone) {
      const at = iso(this.clock())
      milestone = {
        id: this.ids++,
        iid: project.milestones.length + 1,
        title,
        state: 'active',
        created_at: at,
        updated_at: at,
      }
      project.milestones.push(milestone)
    }
    return milestone
  }

  /** Label names, creating the ones the project lacks (GitLab does so, in its default colour). */
  labelsNamed(project: GitlabProject, names: string[]) {
    return [...new Set(names)].map((name) => {
      let label = project.labels.find((l) => l.name === name)
      if (!label) project.labels.push((label = { id: this.ids++, name, color: '#6699cc', description: null }))
      return label.name
    })
  }

  makeIssue(
    project: GitlabProject,
    f: {
      title: string
      description: string | null
      labels: string[]
      milestoneId: number | null
      author: GitlabUser
    },
  ) {
    const at = iso(this.clock())
    const issue: GitlabIssue = {
      id: this.ids++,
      iid: project.nextIid++,
      title: f.title,
      description: f.description,
      state: 'opened',
      labels: this.labelsNamed(project, f.labels),
      milestoneId: f.milestoneId,
      created_at: at,
      updated_at: at,
      closed_at: null,
      moved_to_id: null,
      deleted: false,
      author: f.author,
    }
    project.issues.set(issue.iid, issue)
    return issue
  }

  change(
    project: GitlabProject,
    issue: GitlabIssue,
    c: {
      title?: string
      description?: string
      state?: 'opened' | 'closed'
      labels?: string[]
      milestoneId?: number | null
    },
  ) {
    const changes: HookChanges = {}
    const set = <K extends keyof GitlabIssue>(
      key: K,
      value: GitlabIssue[K] | undefined,
      name: string = key,
    ) => {
      if (value === undefined || JSON.stringify(value) === JSON.stringify(issue[key])) return
      changes[name] = { previous: issue[key], current: value }
      issue[key] = value
    }
    const before = issue.state
    set('title', c.title)
    set('description', c.description)
    set('labels', c.labels && this.labelsNamed(project, c.labels))
    set('milestoneId', c.milestoneId, 'milestone_id')
    set('state', c.state)
    if (Object.keys(changes).length === 0) return null
    if (issue.state !== before) issue.closed_at = issue.state === 'closed' ? iso(this.clock()) : null
    const updated = iso(this.clock())
    changes.updated_at = { previous: issue.updated_at, current: updated }
    issue.updated_at = updated
    const action =
      issue.state === before
        ? ('update' as const)
        : issue.state === 'closed'
          ? ('close' as const)
          : ('reopen' as const)
    return { action, changes }
  }

  /** The issues a list asks for (`state`, `labels`, `iids[]`, `updated_after`/`_before`, `order_by`, `sort`). */
  listIssues(project: GitlabProject, q: Record<string, any>) {
    const state = q.state ?? 'all'
    const wanted = namesOf(q.labels).map((l) => l.toLowerCase())
    const iids = q.iids === undefined ? null : ([] as string[]).concat(q.iids).map(Number)
    const after = q.updated_after ? new Date(q.updated_after).getTime() : null
    const before = q.updated_before ? new Date(q.updated_before).getTime() : null
    const key: 'created_at' | 'updated_at' = q.order_by === 'updated_at' ? 'updated_at' : 'created_at'
    const dir = q.sort === 'asc' ? 1 : -1
    const list = [...project.issues.values()]
      .filter((i) => !i.deleted && (state === 'all' || i.state === state))
      .filter((i) => wanted.every((w) => i.labels.some((l) => l.toLowerCase() === w)))
      .filter((i) => iids === null || iids.includes(i.iid))
      .filter(
        (i) =>
          (after === null || Date.parse(i.updated_at) >= after) &&
          (before === null || Date.parse(i.updated_at) <= before),
      )
      .sort((a, b) => (a[key] < b[key] ? -dir : a[key] > b[key] ? dir : (a.id - b.id) * dir))
    return list
  }
}

/** One page of a list, with GitLab's `x-*` headers and its `Link` header (prev, next, first, last). */
export function sendPage(req: Req, res: Res, origin: string, items: unknown[]) {
  const perPage = Math.min(100, Math.max(1, Number(req.query.per_page ?? 20)))
  const page = Math.max(1, Number(req.query.page ?? 1))
  const { items: slice, totalPages } = pageOf(items, page, perPage)
  const at = (n: number) => {
    const url = new URL(req.originalUrl, origin)
    url.searchParams.set('page', String(n))
    url.searchParams.set('per_page', String(perPage))
    return url.href
  }
  const links = []
  if (page > 1) links.push(`<${at(page - 1)}>; rel="prev"`)
  if (page < totalPages) links.push(`<${at(page + 1)}>; rel="next"`)
  links.push(`<${at(1)}>; rel="first"`, `<${at(totalPages)}>; rel="last"`)
  res.setHeader('Link', links.join(', '))
  res.setHeader('X-Page', String(page))
  res.setHeader('X-Per-Page', String(perPage))
  res.setHeader('X-Next-Page', page < totalPages ? String(page + 1) : '')
  res.setHeader('X-Prev-Page', page > 1 ? String(page - 1) : '')
  res.setHeader('X-Total', String(items.length))
  res.setHeader('X-Total-Pages', String(totalPages))
  res.json(slice)
}

/** Label names from GitLab's comma list or an array. */
export function namesOf(value: unknown): string[] {
  const list = Array.isArray(value) ? value.map(String) : typeof value === 'string' ? value.split(',') : []
  return list.map((n) => n.trim()).filter(Boolean)
}
