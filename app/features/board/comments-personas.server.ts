import { and, eq, sql } from 'drizzle-orm'
import { prepared } from '~/lib/db/prepared.server'
import { featureComments, personas, workflowPersonas } from '~/lib/db/schema'
import { refuse } from '~/lib/errors'
import {
  assertIdFree,
  assertSameProject,
  findCard,
  findProject,
  publicComment,
  publicPersona,
  publicWorkflowPersona,
  type Tx,
} from '../map/entities.server'
import type { Author } from './cards.server'

// ---- feature comments: anyone who can edit may post; only the author edits or deletes

function findComment(tx: Tx, a: Author, id: string) {
  const row = tx
    .select()
    .from(featureComments)
    .where(and(eq(featureComments.id, id), eq(featureComments.workspaceId, a.workspaceId)))
    .get()
  if (!row) throw refuse.notFound('Comment not found.', 'comment_not_found')
  if (row.memberId !== a.memberId)
    throw refuse.forbidden('Only the author of a comment can change it.', 'not_author')
  return row
}

export function createComment(tx: Tx, a: Author, c: { id: string; featureId: string; post: string }) {
  assertIdFree(tx, featureComments, c.id)
  const feature = findCard(tx, 'feature', c.featureId, a.workspaceId) as {
    id: string
    projectId: string
    title: string
    createdBy: string
  }
  // Prepared once: a comment is one of the board's most frequent writes.
  const insert = prepared('insert-comment', (db) =>
    db
      .insert(featureComments)
      .values({
        id: sql.placeholder('id'),
        workspaceId: sql.placeholder('workspaceId'),
        featureId: sql.placeholder('featureId'),
        projectId: sql.placeholder('projectId'),
        memberId: sql.placeholder('memberId'),
        post: sql.placeholder('post'),
        createdAt: sql.placeholder('now'),
        createdByName: sql.placeholder('name'),
        lastModified: sql.placeholder('now'),
      })
      .returning()
      .prepare(),
  )
  const row = insert.get({
    id: c.id,
    workspaceId: a.workspaceId,
    featureId: c.featureId,
    projectId: feature.projectId,
    memberId: a.memberId,
    post: c.post,
    now: a.now,
    name: a.name,
  }) as typeof featureComments.$inferSelect
  return publicComment(row)
}

export function editComment(tx: Tx, a: Author, id: string, post: string) {
  findComment(tx, a, id)
  const row = tx
    .update(featureComments)
    .set({ post, lastModified: a.now })
    .where(eq(featureComments.id, id))
    .returning()
    .get()
  return publicComment(row)
}

export function deleteComment(tx: Tx, a: Author, id: string) {
  findComment(tx, a, id)
  tx.delete(featureComments).where(eq(featureComments.id, id)).run()
  return {}
}

// ---- personas and their goals

function findPersona(tx: Tx, a: Author, id: string) {
  const row = tx
    .select()
    .from(personas)
    .where(and(eq(personas.id, id), eq(personas.workspaceId, a.workspaceId)))
    .get()
  if (!row) throw refuse.notFound('Persona not found.', 'persona_not_found')
  return row
}

function linkPersona(
  tx: Tx,
  a: Author,
  c: { id: string; workflowId: string; personaId: string; projectId: string },
) {
  assertIdFree(tx, workflowPersonas, c.id)
  const workflow = findCard(tx, 'workflow', c.workflowId, a.workspaceId) as { projectId: string }
  assertSameProject(c.projectId, workflow.projectId, 'workflow')
  const existing = tx
    .select({ id: workflowPersonas.id })
    .from(workflowPersonas)
    .where(and(eq(workflowPersonas.workflowId, c.workflowId), eq(workflowPersonas.personaId, c.personaId)))
    .get()
  if (existing) throw refuse.conflict('already_linked', 'The persona is already on this goal.')
  return tx
    .insert(workflowPersonas)
    .values({
      id: c.id,
      workspaceId: a.workspaceId,
      projectId: c.projectId,
      workflowId: c.workflowId,
      personaId: c.personaId,
    })
    .returning()
    .get()
}

export type PersonaFields = { avatar: string; name: string; role: string; description: string }

export function createPersona(
  tx: Tx,
  a: Author,
  c: PersonaFields & {
    id: string
    projectId: string
    workflowId?: string | null
    workflowPersonaId?: string | null
  },
) {
  assertIdFree(tx, personas, c.id)
  findProject(tx, c.projectId, a.workspaceId)
  const row = tx
    .insert(personas)
    .values({
      id: c.id,
      workspaceId: a.workspaceId,
      projectId: c.projectId,
      avatar: c.avatar,
      name: c.name,
      role: c.role,
      description: c.description,
      createdAt: a.now,
    })
    .returning()
    .get()
  if (c.workflowId && c.workflowPersonaId) {
    linkPersona(tx, a, {
      id: c.workflowPersonaId,
      workflowId: c.workflowId,
      personaId: c.id,
      projectId: c.projectId,
    })
  }
  return publicPersona(row)
}

export function updatePersona(tx: Tx, a: Author, id: string, change: Partial<PersonaFields>) {
  findPersona(tx, a, id)
  const defined = Object.fromEntries(Object.entries(change).filter(([, v]) => v !== undefined))
  if (Object.keys(defined).length > 0) tx.update(personas).set(defined).where(eq(personas.id, id)).run()
  return publicPersona(findPersona(tx, a, id))
}

export function deletePersona(tx: Tx, a: Author, id: string) {
  findPersona(tx, a, id)
  tx.delete(personas).where(eq(personas.id, id)).run()
  return {}
}

export function createWorkflowPersona(
  tx: Tx,
  a: Author,
  c: { id: string; workflowId: string; personaId: string },
) {
  const persona = findPersona(tx, a, c.personaId)
  return publicWorkflowPersona(linkPersona(tx, a, { ...c, projectId: persona.projectId }))
}

export function deleteWorkflowPersona(tx: Tx, a: Author, id: string) {
  const row = tx
    .select({ id: workflowPersonas.id })
    .from(workflowPersonas)
    .where(and(eq(workflowPersonas.id, id), eq(workflowPersonas.workspaceId, a.workspaceId)))
    .get()
  if (!row) throw refuse.notFound('Workflow persona not found.', 'workflow_persona_not_found')
  tx.delete(workflowPersonas).where(eq(workflowPersonas.id, id)).run()
  return {}
}
