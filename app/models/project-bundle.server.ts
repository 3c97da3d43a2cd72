import { and, asc, desc, eq } from 'drizzle-orm'
import { getDb } from '~/db/db.server'
import {
  featureComments,
  features,
  milestones,
  personas,
  projects,
  subscriptions,
  subWorkflows,
  workflowPersonas,
  workflows,
  workspaces,
} from '~/db/schema'
import { refuse } from '~/domain/errors'
import { canShareExternally } from '~/domain/plan'
import {
  publicComment,
  publicFeature,
  publicMilestone,
  publicPersona,
  publicSubWorkflow,
  publicWorkflow,
  publicWorkflowPersona,
} from './board-entities.server'
import { publicProject, type Project } from './project.server'

/**
 * A whole story map: one query per table by project id, whatever the map's size.
 * Cards by rank, personas by name, comments newest first.
 */
function bundleOf(project: Project) {
  const db = getDb()
  const pid = project.id
  return {
    project: publicProject(project),
    milestones: db
      .select()
      .from(milestones)
      .where(eq(milestones.projectId, pid))
      .orderBy(asc(milestones.rank))
      .all()
      .map(publicMilestone),
    workflows: db
      .select()
      .from(workflows)
      .where(eq(workflows.projectId, pid))
      .orderBy(asc(workflows.rank))
      .all()
      .map(publicWorkflow),
    subWorkflows: db
      .select()
      .from(subWorkflows)
      .where(eq(subWorkflows.projectId, pid))
      .orderBy(asc(subWorkflows.rank), asc(subWorkflows.id))
      .all()
      .map(publicSubWorkflow),
    features: db
      .select()
      .from(features)
      .where(eq(features.projectId, pid))
      .orderBy(asc(features.rank), asc(features.id))
      .all()
      .map(publicFeature),
    featureComments: db
      .select()
      .from(featureComments)
      .where(eq(featureComments.projectId, pid))
      .orderBy(desc(featureComments.createdAt), desc(featureComments.id))
      .all()
      .map(publicComment),
    personas: db
      .select()
      .from(personas)
      .where(eq(personas.projectId, pid))
      .orderBy(asc(personas.name), asc(personas.id))
      .all()
      .map(publicPersona),
    workflowPersonas: db
      .select()
      .from(workflowPersonas)
      .where(eq(workflowPersonas.projectId, pid))
      .orderBy(asc(workflowPersonas.id))
      .all()
      .map(publicWorkflowPersona),
  }
}

export type ProjectBundle = ReturnType<typeof bundleOf>

/** The map of a project of this workspace (the caller has checked membership), or 404. */
export function getProjectBundle(workspaceId: string, projectId: string): ProjectBundle {
  // Read in one transaction so the lists are consistent with each other.
  return getDb().transaction(() => {
    const project = getDb()
      .select()
      .from(projects)
      .where(and(eq(projects.id, projectId), eq(projects.workspaceId, workspaceId)))
      .get()
    if (!project) throw refuse.notFound('Project not found.', 'project_not_found')
    return bundleOf(project)
  })
}

/**
 * The read-only map behind a share link: only while the workspace allows external sharing on an
 * active trial or paid plan (SPEC §6). Every refusal looks the same as an unknown key.
 */
export function getPublicBundle(externalLink: string, now = new Date()): ProjectBundle {
  const notFound = refuse.notFound('Project not found.', 'not_found')
  if (externalLink.length === 0 || externalLink.length > 200) throw notFound
  return getDb().transaction(() => {
    const row = getDb()
      .select({ project: projects, workspace: workspaces, subscription: subscriptions })
      .from(projects)
      .innerJoin(workspaces, eq(workspaces.id, projects.workspaceId))
      .innerJoin(subscriptions, eq(subscriptions.workspaceId, projects.workspaceId))
      .where(eq(projects.externalLink, externalLink))
      .get()
    if (!row || !canShareExternally(row.subscription, row.workspace.allowExternalSharing, now)) throw notFound
    return bundleOf(row.project)
  })
}
