import { and, eq, sql } from 'drizzle-orm'
import { prepared } from '~/lib/db/prepared.server'
import { features, projects, subWorkflows } from '~/lib/db/schema'
import type { CardKind, TitledKind } from './board-commands'
import { refuse } from '~/lib/errors'
import { randomKey } from '~/lib/crypto.server'
import {
  assertIdFree,
  assertSameProject,
  CARD_TABLES,
  cardTable,
  findCard,
  type CommonCardTable,
  findProject,
  publicCard,
  type CardRow,
  type FeatureRow,
  type SubWorkflowRow,
  type Tx,
} from '../map/entities.server'
import { publicProject } from '../map/project.server'
import type { MovePlace } from '../map/rank'
import { rankAt, rankAtEnd } from './ranks.server'

/** Who writes, and when: stamped on createdBy / lastModified of every row written. */
export type Author = { workspaceId: string; memberId: string; name: string; now: string }

function created(a: Author) {
  return {
    workspaceId: a.workspaceId,
    createdAt: a.now,
    createdBy: a.memberId,
    createdByName: a.name,
    lastModified: a.now,
    lastModifiedByName: a.name,
  }
}
const modified = (a: Author) => ({ lastModified: a.now, lastModifiedByName: a.name })

/** A value filled in when a prepared statement runs. */
const placeholder = (name: string) => sql`${sql.placeholder(name)}`
const modifiedPlaceholders = {
  lastModified: placeholder('lastModified'),
  lastModifiedByName: placeholder('lastModifiedByName'),
}

function reread(tx: Tx, kind: CardKind, id: string, a: Author) {
  return publicCard(kind, findCard(tx, kind, id, a.workspaceId))
}

// ---- projects

export function createProject(tx: Tx, a: Author, c: { id: string; title: string }) {
  assertIdFree(tx, projects, c.id)
  const row = tx
    .insert(projects)
    .values({ id: c.id, title: c.title, description: '', externalLink: randomKey(), ...created(a) })
    .returning()
    .get()
  return publicProject(row)
}

function updateProject(tx: Tx, a: Author, id: string, change: { title?: string; description?: string }) {
  findProject(tx, id, a.workspaceId)
  const row = tx
    .update(projects)
    .set({ ...change, ...modified(a) })
    .where(and(eq(projects.id, id), eq(projects.workspaceId, a.workspaceId)))
    .returning()
    .get()
  return publicProject(row)
}

// ---- creating cards (each goes after the last card of its list)

export function createTopCard(
  tx: Tx,
  a: Author,
  kind: 'milestone' | 'workflow',
  c: { id: string; projectId: string; title: string },
) {
  const table = cardTable(kind)
  assertIdFree(tx, CARD_TABLES[kind], c.id)
  findProject(tx, c.projectId, a.workspaceId)
  const rank = rankAtEnd(tx, table, eq(table.projectId, c.projectId), c.id)
  tx.insert(table)
    .values({
      id: c.id,
      projectId: c.projectId,
      rank,
      title: c.title,
      color: kind === 'workflow' ? 'WHITE' : '',
      ...created(a),
    })
    .run()
  return reread(tx, kind, c.id, a)
}

export function createSubWorkflow(tx: Tx, a: Author, c: { id: string; workflowId: string; title: string }) {
  assertIdFree(tx, subWorkflows, c.id)
  const workflow = findCard(tx, 'workflow', c.workflowId, a.workspaceId) as { projectId: string }
  const rank = rankAtEnd(tx, cardTable('subworkflow'), eq(subWorkflows.workflowId, c.workflowId), c.id)
  tx.insert(subWorkflows)
    .values({
      id: c.id,
      projectId: workflow.projectId,
      workflowId: c.workflowId,
      rank,
      title: c.title,
      ...created(a),
    })
    .run()
  return reread(tx, 'subworkflow', c.id, a)
}

const cellScope = (subWorkflowId: string, milestoneId: string) =>
  and(eq(features.subWorkflowId, subWorkflowId), eq(features.milestoneId, milestoneId))!

/** The release and activity of a feature's cell, checked to be of this workspace and of one project. */
function findCell(tx: Tx, a: Author, subWorkflowId: string, milestoneId: string) {
  const milestone = findCard(tx, 'milestone', milestoneId, a.workspaceId) as { projectId: string }
  const subWorkflow = findCard(tx, 'subworkflow', subWorkflowId, a.workspaceId) as SubWorkflowRow
  assertSameProject(milestone.projectId, subWorkflow.projectId, 'sub-workflow')
  return { projectId: milestone.projectId }
}

export function createFeature(
  tx: Tx,
  a: Author,
  c: { id: string; milestoneId: string; subWorkflowId: string; title: string },
) {
  assertIdFree(tx, features, c.id)
  const { projectId } = findCell(tx, a, c.subWorkflowId, c.milestoneId)
  const rank = rankAtEnd(tx, cardTable('feature'), cellScope(c.subWorkflowId, c.milestoneId), c.id)
  tx.insert(features)
    .values({
      id: c.id,
      projectId,
      subWorkflowId: c.subWorkflowId,
      milestoneId: c.milestoneId,
      rank,
      title: c.title,
      ...created(a),
    })
    .run()
  return reread(tx, 'feature', c.id, a)
}

// ---- the shared card operations

export type CardChange = {
  title?: string
  description?: string
  color?: string
  annotations?: string
  status?: 'OPEN' | 'CLOSED'
}

/**
 * Applies one change to a card. Title, description, colour, annotation and size edits need an
 * OPEN card (SPEC §4); open and close do not.
 */
export function changeCard(tx: Tx, a: Author, kind: TitledKind, id: string, change: CardChange) {
  if (kind === 'project')
    return updateProject(tx, a, id, { title: change.title, description: change.description })
  const fields = Object.keys(change).filter(
    (f) => change[f as keyof CardChange] !== undefined,
  ) as (keyof CardChange)[]
  const opening = fields.includes('status')
  // One statement per kind and set of changed fields, prepared once: this is the path of every
  // rename, colour, annotation, open and close. It finds the card and changes it in one go.
  const update = prepared(`change-card-${kind}-${fields.join(',')}`, (db) => {
    const table = cardTable(kind)
    const set = Object.fromEntries(fields.map((f) => [f, placeholder(f)]))
    return db
      .update(table)
      .set({ ...set, ...modifiedPlaceholders })
      .where(editableCard(table, opening))
      .returning()
      .prepare()
  })
  const updated = update.get({ ...change, ...modified(a), id, workspaceId: a.workspaceId }) as
    CardRow | undefined
  if (!updated) refuseUnchanged(tx, kind, id, a.workspaceId)
  return publicCard(kind, updated)
}

export function setEstimate(tx: Tx, a: Author, id: string, estimate: number) {
  const update = prepared('set-estimate', (db) =>
    db
      .update(features)
      .set({ estimate: placeholder('estimate'), ...modifiedPlaceholders })
      .where(editableCard(features as unknown as CommonCardTable, false))
      .returning()
      .prepare(),
  )
  const updated = update.get({ estimate, ...modified(a), id, workspaceId: a.workspaceId }) as
    CardRow | undefined
  if (!updated) refuseUnchanged(tx, 'feature', id, a.workspaceId)
  return publicCard('feature', updated)
}

/**
 * The card `id` of `workspaceId`; unless the change opens or closes it, only while it is OPEN:
 * title, description, colour, annotation and size edits need an open card (SPEC §4).
 */
function editableCard(table: CommonCardTable, opening: boolean) {
  const card = and(eq(table.id, sql.placeholder('id')), eq(table.workspaceId, sql.placeholder('workspaceId')))
  return opening ? card : and(card, eq(table.status, 'OPEN'))
}

/** Why a change found no card to change: not in this workspace (404) or closed. */
function refuseUnchanged(tx: Tx, kind: CardKind, id: string, workspaceId: string): never {
  findCard(tx, kind, id, workspaceId)
  throw refuse.invalid('card_closed', 'A closed card cannot be edited; reopen it first.')
}

/** Deletes a card or project; the foreign keys take its features, sub-workflows, comments and links with it. */
export function deleteCard(tx: Tx, a: Author, kind: TitledKind, id: string) {
  if (kind === 'project') {
    findProject(tx, id, a.workspaceId)
    tx.delete(projects).where(eq(projects.id, id)).run()
  } else {
    findCard(tx, kind, id, a.workspaceId)
    const table = cardTable(kind)
    tx.delete(table).where(eq(table.id, id)).run()
  }
  return {}
}

// ---- moves (an index or a neighbour: see app/features/map/rank.ts)

export function moveTopCard(tx: Tx, a: Author, kind: 'milestone' | 'workflow', id: string, place: MovePlace) {
  const row = findCard(tx, kind, id, a.workspaceId) as { projectId: string }
  const table = cardTable(kind)
  const rank = rankAt(tx, table, eq(table.projectId, row.projectId), id, place)
  tx.update(table)
    .set({ rank, ...modified(a) })
    .where(eq(table.id, id))
    .run()
  return reread(tx, kind, id, a)
}

export function moveSubWorkflow(tx: Tx, a: Author, id: string, toWorkflowId: string, place: MovePlace) {
  const row = findCard(tx, 'subworkflow', id, a.workspaceId) as SubWorkflowRow
  const to = findCard(tx, 'workflow', toWorkflowId, a.workspaceId) as { projectId: string }
  assertSameProject(row.projectId, to.projectId, 'workflow')
  const rank = rankAt(tx, cardTable('subworkflow'), eq(subWorkflows.workflowId, toWorkflowId), id, place)
  tx.update(subWorkflows)
    .set({ workflowId: toWorkflowId, rank, ...modified(a) })
    .where(eq(subWorkflows.id, id))
    .run()
  return reread(tx, 'subworkflow', id, a)
}

export function moveFeature(
  tx: Tx,
  a: Author,
  id: string,
  toSubWorkflowId: string,
  toMilestoneId: string,
  place: MovePlace,
) {
  const row = findCard(tx, 'feature', id, a.workspaceId) as FeatureRow
  const { projectId } = findCell(tx, a, toSubWorkflowId, toMilestoneId)
  assertSameProject(row.projectId, projectId, 'release')
  const rank = rankAt(tx, cardTable('feature'), cellScope(toSubWorkflowId, toMilestoneId), id, place)
  const update = prepared('move-feature', (db) =>
    db
      .update(features)
      .set({
        subWorkflowId: placeholder('subWorkflowId'),
        milestoneId: placeholder('milestoneId'),
        rank: placeholder('rank'),
        ...modifiedPlaceholders,
      })
      .where(eq(features.id, sql.placeholder('id')))
      .returning()
      .prepare(),
  )
  const moved = update.get({
    subWorkflowId: toSubWorkflowId,
    milestoneId: toMilestoneId,
    rank,
    ...modified(a),
    id,
  })
  return publicCard('feature', moved as CardRow)
}
