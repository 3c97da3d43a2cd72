import { asc, eq } from 'drizzle-orm'
import { getDb } from '~/db/db.server'
import { projects } from '~/db/schema'

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
