import { and, eq, sql } from 'drizzle-orm'
import type { Db } from '~/lib/db/db.server'
import { prepared } from '~/lib/db/prepared.server'
import {
  featureComments,
  features,
  milestones,
  personas,
  projects,
  subWorkflows,
  tags,
  workflowPersonas,
  workflows,
} from '~/lib/db/schema/index'
import type { CardKind } from './vocabulary'
import { refuse } from '~/lib/errors'
import type { publicProject } from './project.server'

/** Table rows and their public (API) shapes for the story-map entities. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]
export type MilestoneRow = typeof milestones.$inferSelect
export type WorkflowRow = typeof workflows.$inferSelect
export type SubWorkflowRow = typeof subWorkflows.$inferSelect
export type FeatureRow = typeof features.$inferSelect
export type CardRow = MilestoneRow | WorkflowRow | SubWorkflowRow | FeatureRow
export type CommentRow = typeof featureComments.$inferSelect
export type PersonaRow = typeof personas.$inferSelect
export type WorkflowPersonaRow = typeof workflowPersonas.$inferSelect
export type TagRow = typeof tags.$inferSelect
/** A feature's GitHub issue as the API shows it (CONTRACT §13). */
export type FeatureGithub = { number: number; url: string; state: 'open' | 'closed' | 'missing' }
export type FeatureTrackerIssue = {
  provider: 'github' | 'gitlab' | 'jira'
  key: string
  url: string
  state: 'open' | 'closed' | 'missing'
  status: string | null
}

type IdTable =
  | typeof projects
  | typeof milestones
  | typeof workflows
  | typeof subWorkflows
  | typeof features
  | typeof featureComments
  | typeof personas
  | typeof workflowPersonas
  | typeof tags

export const CARD_TABLES = {
  milestone: milestones,
  workflow: workflows,
  subworkflow: subWorkflows,
  feature: features,
} as const

/**
 * The four card tables share their common columns (same JS names), so the shared operations
 * address any of them through this one type.
 */
export type CommonCardTable = typeof milestones
export function cardTable(kind: CardKind): CommonCardTable {
  return CARD_TABLES[kind] as unknown as CommonCardTable
}

export const KIND_NAMES: Record<CardKind | 'project', string> = {
  milestone: 'Milestone',
  workflow: 'Workflow',
  subworkflow: 'Sub-workflow',
  feature: 'Feature',
  project: 'Project',
}

function commonCard(row: CardRow) {
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    rank: row.rank,
    title: row.title,
    description: row.description,
    createdAt: row.createdAt,
    createdBy: row.createdBy,
    createdByName: row.createdByName,
    lastModified: row.lastModified,
    lastModifiedByName: row.lastModifiedByName,
    color: row.color,
    status: row.status,
    annotations: row.annotations,
  }
}

export const publicMilestone = (r: MilestoneRow) => ({
  kind: 'milestone' as const,
  ...commonCard(r),
  projectId: r.projectId,
})
export const publicWorkflow = (r: WorkflowRow) => ({
  kind: 'workflow' as const,
  ...commonCard(r),
  projectId: r.projectId,
})
export const publicSubWorkflow = (r: SubWorkflowRow) => ({
  kind: 'subworkflow' as const,
  ...commonCard(r),
  projectId: r.projectId,
  workflowId: r.workflowId,
})
export const publicFeature = (r: FeatureRow) => ({
  kind: 'feature' as const,
  ...commonCard(r),
  projectId: r.projectId,
  subWorkflowId: r.subWorkflowId,
  milestoneId: r.milestoneId,
  estimate: r.estimate,
  tagIds: JSON.parse(r.tagIds) as string[],
  github: r.github === null ? null : (JSON.parse(r.github) as FeatureGithub),
  issue: r.issue === null ? null : (JSON.parse(r.issue) as FeatureTrackerIssue),
})
export const publicComment = (r: CommentRow) => ({
  kind: 'featureComment' as const,
  id: r.id,
  workspaceId: r.workspaceId,
  featureId: r.featureId,
  projectId: r.projectId,
  memberId: r.memberId,
  post: r.post,
  createdAt: r.createdAt,
  createdByName: r.createdByName,
  lastModified: r.lastModified,
})
export const publicPersona = (r: PersonaRow) => ({
  kind: 'persona' as const,
  id: r.id,
  workspaceId: r.workspaceId,
  projectId: r.projectId,
  avatar: r.avatar,
  name: r.name,
  role: r.role,
  description: r.description,
  createdAt: r.createdAt,
})
export const publicWorkflowPersona = (r: WorkflowPersonaRow) => ({
  kind: 'workflowPersona' as const,
  id: r.id,
  personaId: r.personaId,
  projectId: r.projectId,
  workflowId: r.workflowId,
  workspaceId: r.workspaceId,
})

export const publicTag = (r: TagRow) => ({
  kind: 'tag' as const,
  id: r.id,
  workspaceId: r.workspaceId,
  projectId: r.projectId,
  name: r.name,
  color: r.color,
})

export function publicCard(kind: CardKind, row: CardRow) {
  switch (kind) {
    case 'milestone':
      return publicMilestone(row as MilestoneRow)
    case 'workflow':
      return publicWorkflow(row as WorkflowRow)
    case 'subworkflow':
      return publicSubWorkflow(row as SubWorkflowRow)
    case 'feature':
      return publicFeature(row as FeatureRow)
  }
}

export type PublicProject = ReturnType<typeof publicProject>
export type PublicMilestone = ReturnType<typeof publicMilestone>
export type PublicWorkflow = ReturnType<typeof publicWorkflow>
export type PublicSubWorkflow = ReturnType<typeof publicSubWorkflow>
export type PublicFeature = ReturnType<typeof publicFeature>
export type PublicComment = ReturnType<typeof publicComment>
export type PublicPersona = ReturnType<typeof publicPersona>
export type PublicWorkflowPersona = ReturnType<typeof publicWorkflowPersona>
export type PublicTag = ReturnType<typeof publicTag>

/**
 * A card of this workspace, or 404 (ids of other workspaces are not found either). Runs a
 * statement prepared once per kind; on the one connection it is part of the caller's `tx`.
 */
export function findCard(_tx: Tx | Db, kind: CardKind, id: string, workspaceId: string): CardRow {
  const query = prepared(`find-card-${kind}`, (db) => {
    const table = cardTable(kind)
    return db
      .select()
      .from(table)
      .where(and(eq(table.id, sql.placeholder('id')), eq(table.workspaceId, sql.placeholder('workspaceId'))))
      .prepare()
  })
  const row = query.get({ id, workspaceId }) as CardRow | undefined
  if (!row) throw refuse.notFound(`${KIND_NAMES[kind]} not found.`, `${kind}_not_found`)
  return row
}

export function findProject(tx: Tx | Db, id: string, workspaceId: string) {
  const row = tx
    .select()
    .from(projects)
    .where(and(eq(projects.id, id), eq(projects.workspaceId, workspaceId)))
    .get()
  if (!row) throw refuse.notFound('Project not found.', 'project_not_found')
  return row
}

/** 409 when a create's client id is already used by this kind of entity (in any workspace). */
export function assertIdFree(tx: Tx, table: IdTable, id: string) {
  const t = table as unknown as typeof projects
  const row = tx.select({ id: t.id }).from(t).where(eq(t.id, id)).get()
  if (row) throw refuse.conflict('id_taken', 'This id is already used.', 'id')
}

export function assertSameProject(expected: string, actual: string, what: string) {
  if (expected !== actual) throw refuse.invalid('project_mismatch', `The ${what} belongs to another project.`)
}
