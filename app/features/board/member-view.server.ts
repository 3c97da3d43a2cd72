import { and, eq } from 'drizzle-orm'
import { getDb } from '~/lib/db/db.server'
import { memberProjectViews, milestones, workflows } from '~/lib/db/schema'
import { findProject } from '~/features/map/entities.server'
import { DEFAULT_VIEW, knownOnly, type MapView } from './overview'
import { mapViewSchema } from './view-schema'

/** The caller: a member of the workspace (any level, any plan). */
type Viewer = { workspace: { id: string }; member: { id: string } }

/**
 * Each member's view of a project (CONTRACT §15): folds and zoom, the same on every device. A
 * member's own setting beside the door (ADR 37, 39): it changes nothing the map shows, so it
 * is never an event, a version or an undo step, and any member may keep one, VIEWERs too.
 */
export function getMemberView(ctx: Viewer, projectId: string): MapView {
  const db = getDb()
  findProject(db, projectId, ctx.workspace.id)
  const row = db
    .select()
    .from(memberProjectViews)
    .where(and(eq(memberProjectViews.memberId, ctx.member.id), eq(memberProjectViews.projectId, projectId)))
    .get()
  if (!row) return DEFAULT_VIEW
  const stored = mapViewSchema.safeParse({
    collapsedWorkflows: JSON.parse(row.collapsedWorkflows),
    collapsedMilestones: JSON.parse(row.collapsedMilestones),
    zoom: row.zoom,
  })
  if (!stored.success) return DEFAULT_VIEW
  const ids = (table: typeof workflows | typeof milestones) =>
    new Set(
      db
        .select({ id: table.id })
        .from(table)
        .where(eq(table.projectId, projectId))
        .all()
        .map((r) => r.id),
    )
  return knownOnly(stored.data, ids(workflows), ids(milestones))
}

/** Keeps the member's view as given (unknown ids are left out when it is read) and answers it. */
export function setMemberView(ctx: Viewer, projectId: string, view: MapView): MapView {
  const db = getDb()
  findProject(db, projectId, ctx.workspace.id)
  const values = {
    collapsedWorkflows: JSON.stringify(view.collapsedWorkflows),
    collapsedMilestones: JSON.stringify(view.collapsedMilestones),
    zoom: view.zoom,
    updatedAt: new Date().toISOString(),
  }
  db.insert(memberProjectViews)
    .values({ memberId: ctx.member.id, projectId, ...values })
    .onConflictDoUpdate({ target: [memberProjectViews.memberId, memberProjectViews.projectId], set: values })
    .run()
  return getMemberView(ctx, projectId)
}
