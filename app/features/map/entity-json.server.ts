import { getTableName, type Column, type Table } from 'drizzle-orm'
import type { ChangeKind } from '~/features/map/event-merge'
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

/**
 * How each story-map table's rows look in the API, as SQLite `json_object(...)` field lists.
 * The project read renders its lists with them, and the change log's capture triggers render
 * the rows a write touched with them, so an event's entity is byte for byte the bundle's.
 * Field order follows the `public*` mappers (app/features/map/entities.server.ts);
 * tests/integration/project-bundle.test.ts holds them equal.
 */
type Fields = Record<string, Column>

export type { ChangeKind }

/** `kind` inside an entity (the bundle's), and `kind` of a change in a live event (CONTRACT §6). */
export type EntitySpec = {
  table: Table
  entityKind: string
  changeKind: ChangeKind
  fields: Fields
}

const cardFields = (
  t: typeof milestones | typeof workflows | typeof subWorkflows | typeof features,
): Fields => ({
  id: t.id,
  workspaceId: t.workspaceId,
  rank: t.rank,
  title: t.title,
  description: t.description,
  createdAt: t.createdAt,
  createdBy: t.createdBy,
  createdByName: t.createdByName,
  lastModified: t.lastModified,
  lastModifiedByName: t.lastModifiedByName,
  color: t.color,
  status: t.status,
  annotations: t.annotations,
})

export const PROJECT_SPEC: EntitySpec = {
  table: projects,
  entityKind: 'project',
  changeKind: 'project',
  fields: {
    id: projects.id,
    workspaceId: projects.workspaceId,
    title: projects.title,
    description: projects.description,
    createdAt: projects.createdAt,
    createdBy: projects.createdBy,
    createdByName: projects.createdByName,
    lastModified: projects.lastModified,
    lastModifiedByName: projects.lastModifiedByName,
    externalLink: projects.externalLink,
  },
}

/** The bundle's lists, in the order CONTRACT §3 gives them, each with its sort. */
export const LIST_SPECS: Record<string, EntitySpec & { orderBy: string }> = {
  milestones: {
    table: milestones,
    entityKind: 'milestone',
    changeKind: 'milestone',
    fields: { ...cardFields(milestones), projectId: milestones.projectId },
    orderBy: 'rank',
  },
  workflows: {
    table: workflows,
    entityKind: 'workflow',
    changeKind: 'workflow',
    fields: { ...cardFields(workflows), projectId: workflows.projectId },
    orderBy: 'rank',
  },
  subWorkflows: {
    table: subWorkflows,
    entityKind: 'subworkflow',
    changeKind: 'subWorkflow',
    fields: {
      ...cardFields(subWorkflows),
      projectId: subWorkflows.projectId,
      workflowId: subWorkflows.workflowId,
    },
    orderBy: 'rank, id',
  },
  features: {
    table: features,
    entityKind: 'feature',
    changeKind: 'feature',
    fields: {
      ...cardFields(features),
      projectId: features.projectId,
      subWorkflowId: features.subWorkflowId,
      milestoneId: features.milestoneId,
      estimate: features.estimate,
      tagIds: features.tagIds,
      github: features.github,
      issue: features.issue,
    },
    orderBy: 'rank, id',
  },
  featureComments: {
    table: featureComments,
    entityKind: 'featureComment',
    changeKind: 'featureComment',
    fields: {
      id: featureComments.id,
      workspaceId: featureComments.workspaceId,
      featureId: featureComments.featureId,
      projectId: featureComments.projectId,
      memberId: featureComments.memberId,
      post: featureComments.post,
      createdAt: featureComments.createdAt,
      createdByName: featureComments.createdByName,
      lastModified: featureComments.lastModified,
    },
    orderBy: 'created_at desc, id desc',
  },
  personas: {
    table: personas,
    entityKind: 'persona',
    changeKind: 'persona',
    fields: {
      id: personas.id,
      workspaceId: personas.workspaceId,
      projectId: personas.projectId,
      avatar: personas.avatar,
      name: personas.name,
      role: personas.role,
      description: personas.description,
      createdAt: personas.createdAt,
    },
    orderBy: 'name, id',
  },
  workflowPersonas: {
    table: workflowPersonas,
    entityKind: 'workflowPersona',
    changeKind: 'workflowPersona',
    fields: {
      id: workflowPersonas.id,
      personaId: workflowPersonas.personaId,
      projectId: workflowPersonas.projectId,
      workflowId: workflowPersonas.workflowId,
      workspaceId: workflowPersonas.workspaceId,
    },
    orderBy: 'id',
  },
  tags: {
    table: tags,
    entityKind: 'tag',
    changeKind: 'tag',
    fields: {
      id: tags.id,
      workspaceId: tags.workspaceId,
      projectId: tags.projectId,
      name: tags.name,
      color: tags.color,
    },
    orderBy: 'name collate nocase, id',
  },
}

/** Fields kept as JSON text in their column and shown as JSON (a feature's tag ids and GitHub issue). */
export const JSON_FIELDS = new Set(['tagIds', 'github', 'issue'])

/** Every story-map entity's spec: the project first, then the lists. */
export const ENTITY_SPECS: EntitySpec[] = [PROJECT_SPEC, ...Object.values(LIST_SPECS)]

export const tableNameOf = (spec: EntitySpec) => getTableName(spec.table)

/** `json_object('kind', 'feature', 'id', "id", …)`; `row` prefixes each column (e.g. `new.`). */
export function jsonObjectSql(spec: EntitySpec, row = ''): string {
  const pairs = Object.entries(spec.fields).map(([key, column]) =>
    JSON_FIELDS.has(key) ? `'${key}', json(${row}"${column.name}")` : `'${key}', ${row}"${column.name}"`,
  )
  return `json_object('kind', '${spec.entityKind}', ${pairs.join(', ')})`
}
