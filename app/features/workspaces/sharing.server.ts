import { and, eq } from 'drizzle-orm'
import { getDb } from '~/lib/db/db.server'
import { projects, workspaces } from '~/lib/db/schema'
import { refuse } from '~/lib/errors'
import { can, MAP_REFUSALS } from '../map/permissions'
import { canShareExternally } from '~/features/map/plan'
import { randomKey } from '~/lib/crypto.server'
import { forgetRenderedProject } from '~/features/map/project-bundle.server'
import { authorize, executeChange } from '~/features/map/door.server'
import { publicWorkspace, type WorkspaceContext } from './workspace.server'
import type { SharingView } from './sharing-intents'

/**
 * Who shares what (CONTRACT §8): the workspace's `Allow external sharing` switch is over every
 * project's own switch; a project's share link works only while both are on (and the plan
 * allows it, SPEC §6). Only ADMINs and OWNERs on an active plan change either, or make a new link.
 */
export const SHARING_NEEDS_ADMIN = MAP_REFUSALS.manageSharing

/** Turns the workspace's public share links on or off (ADMIN and OWNER, active plan). */
export function setAllowExternalSharing(ctx: WorkspaceContext, value: boolean) {
  authorize(ctx, 'manageSharing')
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
    .select({ enabled: projects.sharingEnabled, externalLink: projects.externalLink, title: projects.title })
    .from(projects)
    .where(and(eq(projects.id, projectId), eq(projects.workspaceId, ctx.workspace.id)))
    .get()
  if (!row) throw refuse.notFound('Project not found.', 'project_not_found')
  return row
}

/** `GET /v1/projects/{id}/sharing`: the project's own switch and key, for any member. */
export function getProjectSharing(ctx: WorkspaceContext, projectId: string): ProjectSharing {
  const { enabled, externalLink } = findProject(ctx, projectId)
  return { enabled, externalLink }
}

/**
 * Stops or restarts one project's share link (the key stays, so restarting brings the same link
 * back). A change through the one door: logged as an Activity line and a `project` webhook, never
 * an undo step, and the key in neither.
 */
export function setProjectSharing(
  ctx: WorkspaceContext,
  projectId: string,
  enabled: boolean,
): ProjectSharing {
  authorize(ctx, 'manageSharing')
  const before = findProject(ctx, projectId)
  return executeChange(ctx, {
    action: 'manageSharing',
    command: { type: 'project.sharing', id: projectId, enabled },
    log:
      before.enabled === enabled
        ? undefined
        : {
            notice: {
              projectId,
              kind: 'project',
              summary: `${enabled ? 'Turned on' : 'Turned off'} the share link of project '${before.title}'`,
            },
          },
    write: (tx) =>
      tx
        .update(projects)
        .set({ sharingEnabled: enabled })
        .where(and(eq(projects.id, projectId), eq(projects.workspaceId, ctx.workspace.id)))
        .returning({ enabled: projects.sharingEnabled, externalLink: projects.externalLink })
        .get()!,
  })
}

/**
 * Gives the project a new key: the old link finds nothing from now on, and its live streams end
 * at their next access check. The project's switch stays as it was.
 */
export function newProjectLink(ctx: WorkspaceContext, projectId: string): ProjectSharing {
  authorize(ctx, 'manageSharing')
  const { title } = findProject(ctx, projectId)
  const row = executeChange(ctx, {
    action: 'manageSharing',
    command: { type: 'project.newLink', id: projectId },
    log: { notice: { projectId, kind: 'project', summary: `Made a new share link for project '${title}'` } },
    write: (tx) =>
      tx
        .update(projects)
        .set({ externalLink: randomKey() })
        .where(and(eq(projects.id, projectId), eq(projects.workspaceId, ctx.workspace.id)))
        .returning({ enabled: projects.sharingEnabled, externalLink: projects.externalLink })
        .get()!,
  })
  // The rendered map JSON of this version held the old key.
  forgetRenderedProject(projectId)
  return row
}

/** What a project's settings show about its share link, and whether the caller may change it. */
export function projectSharingView(ctx: WorkspaceContext, projectId: string, now = new Date()): SharingView {
  const { enabled } = findProject(ctx, projectId)
  const workspaceAllows = ctx.workspace.allowExternalSharing
  return {
    enabled,
    blockedBy: !workspaceAllows
      ? 'workspace'
      : !canShareExternally(ctx.subscription, workspaceAllows, now)
        ? 'plan'
        : null,
    canManage: can(ctx, 'manageSharing'),
  }
}
