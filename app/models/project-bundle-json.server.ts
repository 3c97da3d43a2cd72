import { getTableName, type Column, type Table } from 'drizzle-orm'
import type { Db } from '~/db/db.server'
import {
  featureComments,
  features,
  milestones,
  personas,
  subWorkflows,
  workflowPersonas,
  workflows,
} from '~/db/schema'
import { publicProject, type Project } from './project.server'

/**
 * Renders a whole story map as the API's JSON text inside SQLite: each row becomes its
 * `json_object(...)` there, and the lists are joined here. No row objects are built in
 * JavaScript and nothing is stringified twice, which is what made a 4,000-card map slow.
 *
 * Each list names its fields in the key order of the matching `public*` mapper
 * (board-entities.server.ts); tests/integration/project-bundle.test.ts holds them equal.
 */
type Fields = Record<string, Column>

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

type ListSpec = { kind: string; table: Table; fields: Fields; orderBy: string }

/** The bundle's lists, in the order CONTRACT §3 gives them, each with its sort. */
const LISTS: Record<string, ListSpec> = {
  milestones: {
    kind: 'milestone',
    table: milestones,
    fields: { ...cardFields(milestones), projectId: milestones.projectId },
    orderBy: 'rank',
  },
  workflows: {
    kind: 'workflow',
    table: workflows,
    fields: { ...cardFields(workflows), projectId: workflows.projectId },
    orderBy: 'rank',
  },
  subWorkflows: {
    kind: 'subworkflow',
    table: subWorkflows,
    fields: {
      ...cardFields(subWorkflows),
      projectId: subWorkflows.projectId,
      workflowId: subWorkflows.workflowId,
    },
    orderBy: 'rank, id',
  },
  features: {
    kind: 'feature',
    table: features,
    fields: {
      ...cardFields(features),
      projectId: features.projectId,
      subWorkflowId: features.subWorkflowId,
      milestoneId: features.milestoneId,
      estimate: features.estimate,
    },
    orderBy: 'rank, id',
  },
  featureComments: {
    kind: 'featureComment',
    table: featureComments,
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
    kind: 'persona',
    table: personas,
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
    kind: 'workflowPersona',
    table: workflowPersonas,
    fields: {
      id: workflowPersonas.id,
      personaId: workflowPersonas.personaId,
      projectId: workflowPersonas.projectId,
      workflowId: workflowPersonas.workflowId,
      workspaceId: workflowPersonas.workspaceId,
    },
    orderBy: 'id',
  },
}

/** `select json_object('kind','feature','id',"id",…) from "features" where project_id = ? order by …` */
export function listSql({ kind, table, fields, orderBy }: ListSpec): string {
  const pairs = Object.entries(fields).map(([key, column]) => `'${key}', "${column.name}"`)
  return `select json_object('kind', '${kind}', ${pairs.join(', ')}) from "${getTableName(table)}" where project_id = ? order by ${orderBy}`
}

const LIST_SQL = Object.entries(LISTS).map(([name, spec]) => [name, listSql(spec)] as const)

/** The JSON text of `GET /v1/projects/{id}` for this project row; run it inside a read transaction. */
export function renderBundleJson(db: Db, project: Project): string {
  const parts = [`{"project":${JSON.stringify(publicProject(project))}`]
  for (const [name, sql] of LIST_SQL) {
    const rows = db.$client.prepare(sql).pluck().all(project.id) as string[]
    parts.push(`"${name}":[${rows.join(',')}]`)
  }
  return parts.join(',') + '}'
}
