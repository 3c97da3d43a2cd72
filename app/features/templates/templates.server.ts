import crypto from 'node:crypto'
import { and, asc, eq } from 'drizzle-orm'
import { getDb } from '~/lib/db/db.server'
import { mapTemplates } from '~/lib/db/schema'
import { refuse } from '~/lib/errors'
import { can, PLAN_INACTIVE_TEXT } from '~/features/map/permissions'
import { authorize } from '~/features/map/door.server'
import { getProjectExport } from '~/features/map/project-bundle.server'
import { createProjectFromFile } from '~/features/transfer/index.server'
import type { WorkspaceContext } from '~/features/workspaces/index.server'
import {
  BUILT_IN_TEMPLATES,
  builtInTemplateSummaries,
  findBuiltInTemplate,
  isBuiltInTemplateId,
  shapeOf,
  type TemplateChoice,
  type TemplateSummary,
} from './templates'

/**
 * A workspace's map templates (CONTRACT §16) beside the built-in ones: list, save a project as
 * one (its §8 JSON without comments), rename, delete, and a new project from one, written like
 * an import (new ids, one change).
 */

type TemplateRow = typeof mapTemplates.$inferSelect

const summaryOf = (row: TemplateRow): TemplateSummary => ({
  id: row.id,
  title: row.title,
  description: row.description,
  builtIn: false,
  goals: row.goals,
  features: row.features,
})

/** Only OWNERs and ADMINs, on an active plan, change the workspace's templates. */
function assertManager(ctx: WorkspaceContext) {
  if (can(ctx, 'manageTemplates')) return
  if (!ctx.planActive && can({ ...ctx, planActive: true }, 'manageTemplates'))
    throw refuse.forbidden(PLAN_INACTIVE_TEXT, 'plan_inactive')
  throw refuse.forbidden('Only owners and admins manage the templates of a workspace.', 'level_too_low')
}

function ownTemplates(ctx: WorkspaceContext): TemplateRow[] {
  return getDb()
    .select()
    .from(mapTemplates)
    .where(eq(mapTemplates.workspaceId, ctx.workspace.id))
    .orderBy(asc(mapTemplates.title), asc(mapTemplates.createdAt))
    .all()
}

/** `GET /v1/templates`: the built-in templates, then the workspace's own by title. */
export function listTemplates(ctx: WorkspaceContext): TemplateSummary[] {
  return [...builtInTemplateSummaries(), ...ownTemplates(ctx).map(summaryOf)]
}

/** The workspace's own templates (workspace settings). */
export function listOwnTemplates(ctx: WorkspaceContext): TemplateSummary[] {
  return ownTemplates(ctx).map(summaryOf)
}

/** `New project`'s choices: every template of `listTemplates` with its shape (goals' titles, counts). */
export function listTemplateChoices(ctx: WorkspaceContext): TemplateChoice[] {
  return [
    ...BUILT_IN_TEMPLATES.map(({ map, ...summary }) => ({ ...summary, shape: shapeOf(map) })),
    ...ownTemplates(ctx).map((row) => ({ ...summaryOf(row), shape: shapeOf(JSON.parse(row.map)) })),
  ]
}

function findOwn(ctx: WorkspaceContext, templateId: string): TemplateRow {
  const id = templateId.toLowerCase()
  const row = getDb()
    .select()
    .from(mapTemplates)
    .where(and(eq(mapTemplates.workspaceId, ctx.workspace.id), eq(mapTemplates.id, id)))
    .get()
  if (!row) throw refuse.notFound('Template not found.', 'template_not_found')
  return row
}

function refuseBuiltIn(id: string) {
  if (isBuiltInTemplateId(id))
    throw refuse.conflict('template_builtin', 'Built-in templates cannot be changed or deleted.')
}

/** `Save as template`: the project as it is now, without its comments. */
export function saveTemplate(
  ctx: WorkspaceContext,
  input: { projectId: string; title: string },
  now = new Date(),
): TemplateSummary {
  assertManager(ctx)
  const exported = JSON.parse(getProjectExport(ctx.workspace.id, input.projectId, now).json)
  const map = { ...exported, featureComments: [] }
  const row: TemplateRow = {
    id: crypto.randomUUID(),
    workspaceId: ctx.workspace.id,
    title: input.title,
    description: typeof map.project?.description === 'string' ? map.project.description : '',
    map: JSON.stringify(map),
    goals: Array.isArray(map.workflows) ? map.workflows.length : 0,
    features: Array.isArray(map.features) ? map.features.length : 0,
    createdAt: now.toISOString(),
    createdBy: ctx.member.id,
  }
  getDb().insert(mapTemplates).values(row).run()
  return summaryOf(row)
}

export function renameTemplate(ctx: WorkspaceContext, id: string, title: string): TemplateSummary {
  refuseBuiltIn(id)
  assertManager(ctx)
  const row = findOwn(ctx, id)
  getDb().update(mapTemplates).set({ title }).where(eq(mapTemplates.id, row.id)).run()
  return summaryOf({ ...row, title })
}

export function deleteTemplate(ctx: WorkspaceContext, id: string) {
  refuseBuiltIn(id)
  assertManager(ctx)
  getDb()
    .delete(mapTemplates)
    .where(eq(mapTemplates.id, findOwn(ctx, id).id))
    .run()
}

/** A template's map (built-in or this workspace's), or 404 `template_not_found`. */
function templateMap(ctx: WorkspaceContext, templateId: string): { title: string; map: unknown } {
  const builtIn = findBuiltInTemplate(templateId)
  if (builtIn) return { title: builtIn.title, map: builtIn.map }
  const row = findOwn(ctx, templateId)
  return { title: row.title, map: JSON.parse(row.map) }
}

/** A new project `id` holding the template's map: new ids, one change, like an import. */
export function createProjectFromTemplate(
  ctx: WorkspaceContext,
  input: { id: string; title: string; templateId: string },
  now = new Date(),
) {
  authorize(ctx, 'edit')
  const template = templateMap(ctx, input.templateId)
  return createProjectFromFile(
    ctx,
    { id: input.id, title: input.title },
    template.map,
    { type: 'project.template', id: input.id, title: input.title, templateTitle: template.title },
    now,
  )
}
