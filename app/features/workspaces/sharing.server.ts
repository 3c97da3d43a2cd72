import { and, eq } from 'drizzle-orm'
import { getDb } from '~/lib/db/db.server'
import { projects, workspaces } from '~/lib/db/schema'
import { refuse } from '~/lib/errors'
import { can } from './permissions'
import { canShareExternally } from '~/features/billing/plan'
import { randomKey } from '~/lib/crypto.server'
import { forgetRenderedProject } from '~/features/board/project-bundle.server'
import { afterCommit as wakeWebhooks, queueProjectNotice } from '~/features/automation/webhook.server'
import { publicWorkspace, type WorkspaceContext } from './workspace.server'

/**
 * Who shares what (CONTRACT §8): the workspace's `Allow external sharing` switch is over every
 * project's own switch; a project's share link works only while both are on (and the plan
 * allows it, SPEC §6). Only ADMINs and OWNERs on an active plan change either, or make a new link.
 */
export const SHARING_NEEDS_ADMIN = 'Only an admin or owner can change sharing.'

function assertCanManageSharing(ctx: WorkspaceContext) {
  if (can(ctx, 'manageSharing')) return
  if (!ctx.planActive) throw refuse.forbidden('The workspace plan is inactive.', 'plan_inactive')
  throw refuse.forbidden(SHARING_NEEDS_ADMIN, 'level_too_low')
}

/** Turns the workspace's public share links on or off (ADMIN and OWNER, active plan). */
export function setAllowExternalSharing(ctx: WorkspaceContext, value: boolean) {
  assertCanManageSharing(ctx)
  const row = getDb()
    .update(workspaces)
    .set({ allowExternalSharing: value })
    .where(eq(workspaces.id, ctx.workspace.id))
    .returning()
    .get()
  return publicWorkspace(row)
}

export type ProjectSharing = { enabled: boolean; externalLink: string }

function findProject(ctx: WorkspaceContext, projectId: string) {
  const row = getDb()
    .select({ enabled: projects.sharingEnabled, externalLink: projects.externalLink })
    .from(projects)
    .where(and(eq(projects.id, projectId), eq(projects.workspaceId, ctx.workspace.id)))
    .get()
  if (!row) throw refuse.notFound('Project not found.', 'project_not_found')
  return row
}

/** `GET /v1/projects/{id}/sharing`: the project's own switch and key, for any member. */
export function getProjectSharing(ctx: WorkspaceContext, projectId: string): ProjectSharing {
  return findProject(ctx, projectId)
}

/** Stops or restarts one project's share link; the key stays, so restarting brings the same link back. */
export function setProjectSharing(
  ctx: WorkspaceContext,
  projectId: string,
  enabled: boolean,
): ProjectSharing {
  assertCanManageSharing(ctx)
  const before = findProject(ctx, projectId)
  const db = getDb()
  const row = db.transaction((tx) => {
    const updated = tx
      .update(projects)
      .set({ sharingEnabled: enabled })
      .where(and(eq(projects.id, projectId), eq(projects.workspaceId, ctx.workspace.id)))
      .returning({ enabled: projects.sharingEnabled, externalLink: projects.externalLink, title: projects.title })
      .get()!
    if (before.enabled !== enabled)
      queueProjectNotice(ctx, projectId, `${enabled ? 'Turned on' : 'Turned off'} the share link of project '${updated.title}'`)
    return updated
  })
  wakeWebhooks()
  return { enabled: row.enabled, externalLink: row.externalLink }
}

/**
 * Gives the project a new key: the old link finds nothing from now on, and its live streams end
 * at their next access check. The project's switch stays as it was.
 */
export function newProjectLink(ctx: WorkspaceContext, projectId: string): ProjectSharing {
  assertCanManageSharing(ctx)
  findProject(ctx, projectId)
  const row = getDb().transaction((tx) => {
    const updated = tx
      .update(projects)
      .set({ externalLink: randomKey() })
      .where(and(eq(projects.id, projectId), eq(projects.workspaceId, ctx.workspace.id)))
      .returning({ enabled: projects.sharingEnabled, externalLink: projects.externalLink, title: projects.title })
      .get()!
    queueProjectNotice(ctx, projectId, `Made a new share link for project '${updated.title}'`)
    return updated
  })
  wakeWebhooks()
  // The key is part of the map's JSON, which is kept per change-log version: this write is not logged.
  forgetRenderedProject(projectId)
  return { enabled: row.enabled, externalLink: row.externalLink }
}

/** What a project's settings show about its share link, and whether the caller may change it. */
export function projectSharingView(ctx: WorkspaceContext, projectId: string, now = new Date()) {
  const { enabled } = findProject(ctx, projectId)
  const workspaceAllows = ctx.workspace.allowExternalSharing
  return {
    enabled,
    /** Why no project of this workspace is shared at the moment, or null. */
    blockedBy: !workspaceAllows
      ? ('workspace' as const)
      : !canShareExternally(ctx.subscription, workspaceAllows, now)
        ? ('plan' as const)
        : null,
    canManage: can(ctx, 'manageSharing'),
  }
}
