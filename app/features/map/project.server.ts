import { asc, eq } from 'drizzle-orm'
import { getDb } from '~/lib/db/db.server'
import { projects } from '~/lib/db/schema/index'
import type { CardKind } from './vocabulary'

export type Project = typeof projects.$inferSelect

export function publicProject(p: Omit<Project, 'sharingEnabled'>) {
  return {
    kind: 'project' as const,
    id: p.id,
    workspaceId: p.workspaceId,
    title: p.title,
    description: p.description,
    createdAt: p.createdAt,
    createdBy: p.createdBy,
    createdByName: p.createdByName,
    lastModified: p.lastModified,
    lastModifiedByName: p.lastModifiedByName,
    externalLink: p.externalLink,
  }
}

/** The workspace's projects, oldest first. */
export function listProjects(workspaceId: string) {
  return getDb()
    .select()
    .from(projects)
    .where(eq(projects.workspaceId, workspaceId))
    .orderBy(asc(projects.createdAt), asc(projects.title))
    .all()
    .map(publicProject)
}

export type ProjectCounts = { goals: number; activities: number; releases: number; features: number }

/** How many cards of each kind each project of the workspace has. */
export function projectCounts(workspaceId: string): Map<string, ProjectCounts> {
  const rows = getDb()
    .$client.prepare(
      `select p.id as id,
         (select count(*) from workflows where project_id = p.id) as goals,
         (select count(*) from subworkflows where project_id = p.id) as activities,
         (select count(*) from milestones where project_id = p.id) as releases,
         (select count(*) from features where project_id = p.id) as features
       from projects p where p.workspace_id = ?`,
    )
    .all(workspaceId) as ({ id: string } & ProjectCounts)[]
  return new Map(rows.map(({ id, ...counts }) => [id, counts]))
}

/** Which kind of card `id` is, and its project, within the workspace; null when there is none. */
export function locateCard(workspaceId: string, id: string): { kind: CardKind; projectId: string } | null {
  const row = getDb()
    .$client.prepare(
      `select 'workflow' as kind, project_id as projectId from workflows where id = @id and workspace_id = @ws
       union all select 'subworkflow', project_id from subworkflows where id = @id and workspace_id = @ws
       union all select 'milestone', project_id from milestones where id = @id and workspace_id = @ws
       union all select 'feature', project_id from features where id = @id and workspace_id = @ws`,
    )
    .get({ id, ws: workspaceId }) as { kind: CardKind; projectId: string } | undefined
  return row ?? null
}
