import { eq } from 'drizzle-orm'
import { getDb } from '~/db/db.server'
import { workspaces } from '~/db/schema'
import { refuse } from '~/domain/errors'
import { can } from '~/domain/permissions'
import { publicWorkspace, type WorkspaceContext } from './workspace.server'

/** Turns the workspace's public share links on or off (ADMIN and OWNER, active plan). */
export function setAllowExternalSharing(ctx: WorkspaceContext, value: boolean) {
  if (!can(ctx, 'manageSharing')) {
    if (!ctx.planActive) throw refuse.forbidden('The workspace plan is inactive.', 'plan_inactive')
    throw refuse.forbidden('Only an admin or owner can change sharing.', 'level_too_low')
  }
  const row = getDb()
    .update(workspaces)
    .set({ allowExternalSharing: value })
    .where(eq(workspaces.id, ctx.workspace.id))
    .returning()
    .get()
  return publicWorkspace(row)
}
