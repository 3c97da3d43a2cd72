/**
 * The state of the fake GitLab (fake-gitlab.ts) and the JSON it answers with, shaped as GitLab's
 * REST API v4 and its `Issue Hook` webhook send them (the fields Storymap reads, and the common
 * ones around them).
 */

export type GitlabUser = { id: number; username: string; name: string }
export type GitlabLabel = { id: number; name: string; color: string; description: string | null }
export type GitlabMilestone = {
  id: number
  iid: number
  title: string
  state: 'active' | 'closed'
  created_at: string
  updated_at: string
}
export type GitlabIssue = {
  id: number
  iid: number
  title: string
  description: string | null
  state: 'opened' | 'closed'
  labels: string[]
  milestoneId: number | null
  created_at: string
  updated_at: string
  closed_at: string | null
  moved_to_id: number | null
  deleted: boolean
  author: GitlabUser
}
export type GitlabProject = {
  id: number
  path: string
  issues: Map<number, GitlabIssue>
  labels: GitlabLabel[]
  milestones: GitlabMilestone[]
  nextIid: number
  hooks: { url: string; token: string }[]
}
export type GitlabToken = {
  id: number
  name: string
  user: GitlabUser
  /** Access level by project path (lower case), and whether it comes through the group. */
  access: Map<string, { level: number; via: 'project' | 'group' }>
  scopes: string[]
  expiresAt: string | null
  revoked: boolean
  created_at: string
}

export const iso = (ms: number) => new Date(ms).toISOString()
/** Hooks write times as GitLab's webhooks do: `2026-11-27 10:00:00 UTC`. */
export const hookTime = (isoTime: string | null) =>
  isoTime ? isoTime.replace('T', ' ').replace(/\.\d+Z$/, ' UTC') : null

const userJson = (u: GitlabUser, web: string) => ({
  id: u.id,
  username: u.username,
  name: u.name,
  state: 'active',
  locked: false,
  avatar_url: null,
  web_url: `${web}/${u.username}`,
})

export function projectJson(
  p: GitlabProject,
  web: string,
  access: { level: number; via: 'project' | 'group' } | undefined,
) {
  const name = p.path.split('/').at(-1)!
  const namespace = p.path.split('/').slice(0, -1).join('/')
  const level = access ? { access_level: access.level, notification_level: 3 } : null
  return {
    id: p.id,
    description: null,
    name,
    name_with_namespace: p.path.split('/').join(' / '),
    path: name,
    path_with_namespace: p.path,
    created_at: '2026-01-05T09:00:00.000Z',
    default_branch: 'main',
    web_url: `${web}/${p.path}`,
    namespace: {
      id: p.id + 1000,
      name: namespace,
      path: namespace.split('/').at(-1),
      kind: 'group',
      full_path: namespace,
    },
    issues_enabled: true,
    visibility: 'private',
    permissions: {
      project_access: access?.via === 'project' ? level : null,
      group_access: access?.via === 'group' ? level : null,
    },
  }
}

export const labelJson = (l: GitlabLabel) => ({
  id: l.id,
  name: l.name,
  color: l.color,
  text_color: '#FFFFFF',
  description: l.description,
  description_html: l.description ?? '',
  open_issues_count: 0,
  closed_issues_count: 0,
  open_merge_requests_count: 0,
  subscribed: false,
  priority: null,
  is_project_label: true,
})

export const milestoneJson = (m: GitlabMilestone, p: GitlabProject, web: string) => ({
  id: m.id,
  iid: m.iid,
  project_id: p.id,
  title: m.title,
  description: '',
  state: m.state,
  created_at: m.created_at,
  updated_at: m.updated_at,
  due_date: null,
  start_date: null,
  expired: false,
  web_url: `${web}/${p.path}/-/milestones/${m.iid}`,
})

export function issueJson(i: GitlabIssue, p: GitlabProject, web: string, api: string) {
  const milestone = p.milestones.find((m) => m.id === i.milestoneId)
  return {
    id: i.id,
    iid: i.iid,
    project_id: p.id,
    title: i.title,
    description: i.description,
    state: i.state,
    created_at: i.created_at,
    updated_at: i.updated_at,
    closed_at: i.closed_at,
    closed_by: null,
    labels: i.labels,
    milestone: milestone ? milestoneJson(milestone, p, web) : null,
    assignees: [],
    author: userJson(i.author, web),
    type: 'ISSUE',
    issue_type: 'issue',
    assignee: null,
    user_notes_count: 0,
    merge_requests_count: 0,
    upvotes: 0,
    downvotes: 0,
    due_date: null,
    confidential: false,
    discussion_locked: null,
    web_url: `${web}/${p.path}/-/issues/${i.iid}`,
    time_stats: {
      time_estimate: 0,
      total_time_spent: 0,
      human_time_estimate: null,
      human_total_time_spent: null,
    },
    task_completion_status: { count: 0, completed_count: 0 },
    has_tasks: false,
    moved_to_id: i.moved_to_id,
    references: { short: `#${i.iid}`, relative: `#${i.iid}`, full: `${p.path}#${i.iid}` },
    _links: {
      self: `${api}/projects/${p.id}/issues/${i.iid}`,
      notes: `${api}/projects/${p.id}/issues/${i.iid}/notes`,
      award_emoji: `${api}/projects/${p.id}/issues/${i.iid}/award_emoji`,
      project: `${api}/projects/${p.id}`,
    },
  }
}

export type HookChanges = Record<string, { previous: unknown; current: unknown }>

/** An `Issue Hook` body as GitLab posts it. */
export function issueHookBody(
  i: GitlabIssue,
  p: GitlabProject,
  web: string,
  action: 'open' | 'close' | 'reopen' | 'update',
  changes: HookChanges,
  by: GitlabUser,
) {
  const labels = i.labels.map((name) => {
    const label = p.labels.find((l) => l.name === name)!
    return {
      id: label.id,
      title: label.name,
      color: label.color,
      project_id: p.id,
      created_at: hookTime(i.created_at),
      updated_at: hookTime(i.created_at),
      template: false,
      description: label.description,
      type: 'ProjectLabel',
      group_id: null,
    }
  })
  const name = p.path.split('/').at(-1)
  return {
    object_kind: 'issue',
    event_type: 'issue',
    user: { id: by.id, name: by.name, username: by.username, avatar_url: null, email: '[REDACTED]' },
    project: {
      id: p.id,
      name,
      description: null,
      web_url: `${web}/${p.path}`,
      avatar_url: null,
      git_ssh_url: `git@127.0.0.1:${p.path}.git`,
      git_http_url: `${web}/${p.path}.git`,
      namespace: p.path.split('/').slice(0, -1).join('/'),
      visibility_level: 0,
      path_with_namespace: p.path,
      default_branch: 'main',
      homepage: `${web}/${p.path}`,
    },
    object_attributes: {
      id: i.id,
      iid: i.iid,
      title: i.title,
      description: i.description,
      state: i.state,
      action,
      created_at: hookTime(i.created_at),
      updated_at: hookTime(i.updated_at),
      closed_at: hookTime(i.closed_at),
      project_id: p.id,
      milestone_id: i.milestoneId,
      author_id: i.author.id,
      labels,
      moved_to_id: i.moved_to_id,
      confidential: false,
      url: `${web}/${p.path}/-/issues/${i.iid}`,
    },
    labels,
    changes,
    repository: { name, url: `git@127.0.0.1:${p.path}.git`, description: null, homepage: `${web}/${p.path}` },
  }
}
