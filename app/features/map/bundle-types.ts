/** The shapes of a project bundle as the API returns them (CONTRACT §3, SPEC §3). */
export type CardStatus = 'OPEN' | 'CLOSED'

export type CardFields = {
  id: string
  workspaceId: string
  rank: string
  title: string
  description: string
  createdAt: string
  createdBy: string
  createdByName: string
  lastModified: string
  lastModifiedByName: string
  color: string
  status: CardStatus
  annotations: string
}

export type ProjectEntity = {
  kind: 'project'
  id: string
  workspaceId: string
  title: string
  description: string
  createdAt: string
  createdBy: string
  createdByName: string
  lastModified: string
  lastModifiedByName: string
  externalLink: string
  /** Its GitHub repository (CONTRACT §13); absent on the public link. */
  github?: GithubLink | null
  /** Its tracker, whichever (CONTRACT §14); absent on the public link. */
  tracker?: TrackerLink | null
}
/** A project's tracker link, as every member may read it (never the token). */
export type TrackerLink = {
  provider: 'github' | 'gitlab' | 'jira'
  url: string
  project: string
  linkedAt: string
  linkedBy: { memberId: string; name: string }
  status: 'ok' | 'token_invalid' | 'project_missing' | 'rate_limited' | 'unreachable' | 'token_expiring'
  lastSyncAt: string | null
  error: string | null
  tokenExpiresAt: string | null
}
/** A project's link to a GitHub repository, as every member may read it (never the token). */
export type GithubLink = {
  repository: string
  linkedAt: string
  linkedBy: { memberId: string; name: string }
  status: 'ok' | 'token_invalid' | 'repository_missing' | 'rate_limited' | 'unreachable'
  lastSyncAt: string | null
  error: string | null
}
/** A feature's GitHub issue. */
export type FeatureIssue = { number: number; url: string; state: 'open' | 'closed' | 'missing' }
export type Milestone = CardFields & { projectId: string }
export type Workflow = CardFields & { projectId: string }
export type SubWorkflow = CardFields & { workflowId: string; projectId?: string }
export type Feature = CardFields & {
  projectId: string
  subWorkflowId: string
  milestoneId: string
  estimate: number
  /** The project's tags on it (CONTRACT §12); absent in maps from before tags. */
  tagIds?: string[]
  /** Its GitHub issue (CONTRACT §13); absent on the public link. */
  github?: FeatureIssue | null
  /** Its tracker issue, whichever tracker (CONTRACT §14); absent on the public link. */
  issue?: FeatureTrackerIssue | null
}
/** A feature's issue on the linked tracker (CONTRACT §14). */
export type FeatureTrackerIssue = {
  provider: 'github' | 'gitlab' | 'jira'
  key: string
  url: string
  state: 'open' | 'closed' | 'missing'
  status: string | null
}
/** A project's tag (CONTRACT §12). */
export type Tag = {
  kind?: 'tag'
  id: string
  workspaceId?: string
  projectId: string
  name: string
  color: string
}
export type FeatureComment = {
  kind: 'featureComment'
  id: string
  workspaceId: string
  featureId: string
  projectId: string
  memberId: string
  post: string
  createdAt: string
  createdByName: string
  lastModified: string
}
export type Persona = {
  id: string
  workspaceId: string
  projectId: string
  avatar: string
  name: string
  role: string
  description: string
  createdAt: string
}
export type WorkflowPersona = {
  id: string
  personaId: string
  projectId: string
  workflowId: string
  workspaceId: string
}

export type ProjectBundle = {
  /** How many changes the project had when this copy was read (CONTRACT §6). */
  version: number
  project: ProjectEntity
  milestones: Milestone[]
  workflows: Workflow[]
  subWorkflows: SubWorkflow[]
  features: Feature[]
  featureComments: FeatureComment[]
  personas: Persona[]
  workflowPersonas: WorkflowPersona[]
  /** The project's tags, by name (CONTRACT §12). */
  tags: Tag[]
}

/** Who makes an edit and when, as the reducer stamps it on the cards it touches. */
export type EditMeta = { memberId: string; name: string; now: string }
