import crypto from 'node:crypto'
import { getTableName, type Table } from 'drizzle-orm'
import type Database from 'better-sqlite3'
import { prepared } from '~/lib/db/prepared.server'
import {
  featureComments,
  features,
  members,
  milestones,
  personas,
  projects,
  subWorkflows,
  tags,
  workflowPersonas,
  workflows,
} from '~/lib/db/schema'
import { TITLE_MAX } from '~/features/map/vocabulary'
import { refuse } from '~/lib/errors'
import { EXPORT_FORMAT, EXPORT_FORMAT_VERSION } from '../map/export-format'
import { importExport } from './import-json'
import { cardCount, ImportError, type ImportedMap } from './import-map'
import { ranksByGroup, rebalanceRanks } from '~/features/map/rank'
import { randomKey } from '~/lib/crypto.server'
import { assertIdFree, type PublicProject } from '~/features/map/entities.server'
import { authorize, executeChange, withoutCapture } from '~/features/map/door.server'
import { getProjectBundle } from '~/features/map/project-bundle.server'
import { publicProject } from '~/features/map/project.server'
import type { WorkspaceContext } from '~/features/workspaces/index.server'

/**
 * Import and duplicate (CONTRACT §8): a whole map written as a new project in one transaction.
 * The project row is written first and logged (it is the project's change 1); its thousands of
 * cards, comments and personas follow without change capture (nobody can watch the new project
 * yet) through statements prepared once. Everything gets a new id; cards get fresh, evenly
 * spread ranks in their order, and the importer as author and now as time; comments keep their
 * text, author name and dates, personas their goals.
 */

/** `insert into "table" (col, …) values (@field, …)` for these fields of a Drizzle table. */
function insertStatement(name: string, table: Table, fields: string[]) {
  return prepared(`import-insert-${name}`, (db) => {
    const columns = fields.map((f) => `"${(table as unknown as Record<string, { name: string }>)[f].name}"`)
    return db.$client.prepare(
      `insert into "${getTableName(table)}" (${columns.join(', ')}) values (${fields.map((f) => `@${f}`).join(', ')})`,
    ) as Database.Statement<Record<string, unknown>>
  })
}

const CARD_FIELDS = [
  'id',
  'workspaceId',
  'projectId',
  'rank',
  'title',
  'description',
  'color',
  'status',
  'annotations',
  'createdAt',
  'createdBy',
  'createdByName',
  'lastModified',
  'lastModifiedByName',
]

const statements = () => ({
  project: insertStatement('project', projects, [
    'id',
    'workspaceId',
    'title',
    'description',
    'externalLink',
    'createdAt',
    'createdBy',
    'createdByName',
    'lastModified',
    'lastModifiedByName',
  ]),
  milestone: insertStatement('milestone', milestones, CARD_FIELDS),
  workflow: insertStatement('workflow', workflows, CARD_FIELDS),
  subWorkflow: insertStatement('subWorkflow', subWorkflows, [...CARD_FIELDS, 'workflowId']),
  feature: insertStatement('feature', features, [
    ...CARD_FIELDS,
    'subWorkflowId',
    'milestoneId',
    'estimate',
    'tagIds',
  ]),
  tag: insertStatement('tag', tags, ['id', 'workspaceId', 'projectId', 'name', 'color', 'createdAt']),
  comment: insertStatement('comment', featureComments, [
    'id',
    'workspaceId',
    'featureId',
    'projectId',
    'memberId',
    'post',
    'createdAt',
    'createdByName',
    'lastModified',
  ]),
  persona: insertStatement('persona', personas, [
    'id',
    'workspaceId',
    'projectId',
    'avatar',
    'name',
    'role',
    'description',
    'createdAt',
  ]),
  workflowPersona: insertStatement('workflowPersona', workflowPersonas, [
    'id',
    'workspaceId',
    'projectId',
    'personaId',
    'workflowId',
  ]),
})

const memberIds = () =>
  prepared('import-member-ids', (db) =>
    db.$client.prepare(`select id from "${getTableName(members)}" where workspace_id = ?`).pluck(),
  )

type Stamp = {
  workspaceId: string
  projectId: string
  createdAt: string
  createdBy: string
  createdByName: string
  lastModified: string
  lastModifiedByName: string
}

/** Writes the map's contents under the project `stamp.projectId`. */
function insertContents(map: ImportedMap, stamp: Stamp) {
  const s = statements()
  const newIds = (n: number) => Array.from({ length: n }, () => crypto.randomUUID())
  const ids = {
    milestones: newIds(map.milestones.length),
    workflows: newIds(map.workflows.length),
    subWorkflows: newIds(map.subWorkflows.length),
    features: newIds(map.features.length),
    personas: newIds(map.personas.length),
    tags: newIds(map.tags.length),
  }
  map.tags.forEach((t, i) =>
    s.tag.run({
      ...t,
      id: ids.tags[i],
      workspaceId: stamp.workspaceId,
      projectId: stamp.projectId,
      createdAt: stamp.createdAt,
    }),
  )
  const topRanks = {
    milestones: rebalanceRanks(map.milestones.length),
    workflows: rebalanceRanks(map.workflows.length),
  }
  map.milestones.forEach((c, i) =>
    s.milestone.run({ ...c, ...stamp, id: ids.milestones[i], rank: topRanks.milestones[i] }),
  )
  map.workflows.forEach((c, i) =>
    s.workflow.run({ ...c, ...stamp, id: ids.workflows[i], rank: topRanks.workflows[i] }),
  )
  const activityRanks = ranksByGroup(map.subWorkflows.map((a) => a.workflow))
  map.subWorkflows.forEach(({ workflow, ...c }, i) =>
    s.subWorkflow.run({
      ...c,
      ...stamp,
      id: ids.subWorkflows[i],
      rank: activityRanks[i],
      workflowId: ids.workflows[workflow],
    }),
  )
  const featureRanks = ranksByGroup(map.features.map((f) => `${f.milestone}:${f.subWorkflow}`))
  map.features.forEach(({ milestone, subWorkflow, tags: tagIndexes, ...c }, i) =>
    s.feature.run({
      ...c,
      ...stamp,
      tagIds: JSON.stringify(tagIndexes.map((t) => ids.tags[t])),
      id: ids.features[i],
      rank: featureRanks[i],
      milestoneId: ids.milestones[milestone],
      subWorkflowId: ids.subWorkflows[subWorkflow],
    }),
  )
  // A comment stays editable by its author when the author is a member here (a copy within the workspace).
  const localMembers = new Set(memberIds().all(stamp.workspaceId) as string[])
  for (const c of map.comments) {
    s.comment.run({
      id: crypto.randomUUID(),
      workspaceId: stamp.workspaceId,
      projectId: stamp.projectId,
      featureId: ids.features[c.feature],
      memberId: localMembers.has(c.memberId) ? c.memberId : '',
      post: c.post,
      createdAt: c.createdAt,
      createdByName: c.createdByName,
      lastModified: c.lastModified,
    })
  }
  map.personas.forEach((p, i) =>
    s.persona.run({
      ...p,
      id: ids.personas[i],
      workspaceId: stamp.workspaceId,
      projectId: stamp.projectId,
      createdAt: p.createdAt ?? stamp.createdAt,
    }),
  )
  for (const wp of map.workflowPersonas) {
    s.workflowPersona.run({
      id: crypto.randomUUID(),
      workspaceId: stamp.workspaceId,
      projectId: stamp.projectId,
      personaId: ids.personas[wp.persona],
      workflowId: ids.workflows[wp.workflow],
    })
  }
}

/**
 * Creates project `id` holding `map`, logged as `command`; all or nothing. `undoable`: the map's
 * cards are recorded (not the project row), so the member's Undo takes the map off the new board
 * and Redo brings it back (a template or a draft, CONTRACT §16); an import or a copy of up to
 * 20,000 cards is written unrecorded, as recording costs it 40 % more time.
 */
function createProjectFromMap(
  ctx: WorkspaceContext,
  id: string,
  title: string,
  map: ImportedMap,
  command: { type: string } & Record<string, unknown>,
  now: Date,
  undoable = false,
): PublicProject {
  const at = now.toISOString()
  const stamp: Stamp = {
    workspaceId: ctx.workspace.id,
    projectId: id,
    createdAt: at,
    createdBy: ctx.member.id,
    createdByName: ctx.account.name,
    lastModified: at,
    lastModifiedByName: ctx.account.name,
  }
  return executeChange(ctx, {
    action: 'edit',
    command,
    at: now,
    write: (tx) => {
      assertIdFree(tx, projects, id)
      const { projectId, ...common } = stamp
      const row = { ...common, id: projectId, title, description: map.description, externalLink: randomKey() }
      if (undoable) {
        withoutCapture(() => statements().project.run(row))
        insertContents(map, stamp)
      } else {
        statements().project.run(row)
        withoutCapture(() => insertContents(map, stamp))
      }
      return publicProject(row)
    },
  })
}

/** A new project from a checked import file (`readImport`); its title, else the file's, else a default. */
export function importProject(
  ctx: WorkspaceContext,
  map: ImportedMap,
  title: string | null,
  now = new Date(),
) {
  const id = crypto.randomUUID()
  const name = title ?? map.title ?? 'Imported project'
  return createProjectFromMap(
    ctx,
    id,
    name,
    map,
    { type: 'project.import', id, title: name, cards: cardCount(map) },
    now,
  )
}

export const copyTitle = (title: string) => `Copy of ${title}`.slice(0, TITLE_MAX).trim()

/** A full copy of a project of this workspace as project `id` (default title `Copy of <title>`). */
export function duplicateProject(
  ctx: WorkspaceContext,
  fromId: string,
  copy: { id: string; title?: string },
  now = new Date(),
) {
  authorize(ctx, 'edit')
  const bundle = getProjectBundle(ctx.workspace.id, fromId)
  let map: ImportedMap
  try {
    map = importExport({ ...bundle, format: EXPORT_FORMAT, formatVersion: EXPORT_FORMAT_VERSION })
  } catch (error) {
    if (error instanceof ImportError) throw refuse.invalid('import_invalid', error.message)
    throw error
  }
  const title = copy.title ?? copyTitle(bundle.project.title)
  return createProjectFromMap(
    ctx,
    copy.id,
    title,
    map,
    { type: 'project.duplicate', id: copy.id, fromId, fromTitle: bundle.project.title, title },
    now,
  )
}

/**
 * A new project `id` holding a map file made elsewhere (a template or a draft, CONTRACT §16): read
 * like an import, written as one change logged as `command`, which Undo takes back to an empty board.
 */
export function createProjectFromFile(
  ctx: WorkspaceContext,
  project: { id: string; title: string },
  file: unknown,
  command: { type: string } & Record<string, unknown>,
  now = new Date(),
) {
  authorize(ctx, 'edit')
  let map: ImportedMap
  try {
    map = importExport(file)
  } catch (error) {
    if (error instanceof ImportError) throw refuse.invalid('import_invalid', error.message)
    throw error
  }
  return createProjectFromMap(
    ctx,
    project.id,
    project.title,
    map,
    { ...command, cards: cardCount(map) },
    now,
    true,
  )
}
