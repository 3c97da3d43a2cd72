import { and, asc, eq } from 'drizzle-orm'
import { getDb } from '~/lib/db/db.server'
import { accounts, members } from '~/lib/db/schema'
import { refuse } from '~/lib/errors'
import {
  deleteWorkspaceRefusal,
  leaveRefusal,
  levelChangeRefusal,
  MEMBERSHIP_TEXT,
  removalRefusal,
} from './membership'
import { can, type Level } from '~/features/map/permissions'
import { assertEditorSeat } from './seats.server'
import type { WorkspaceContext } from './workspace.server'
import { deleteWorkspaces } from '~/features/map/door.server'

/**
 * Members of a workspace. Every call takes the caller's WorkspaceContext (read fresh for this
 * request) and re-reads the target inside its transaction.
 */

export type PublicMember = {
  id: string
  accountId: string
  name: string
  email: string
  level: Level
  createdAt: string
}

function forbidIf(message: string | null, code = 'forbidden') {
  if (message) throw refuse.forbidden(message, code)
}

export function requireMemberAdmin(ctx: WorkspaceContext) {
  if (!can({ ...ctx, planActive: true }, 'manageMembers')) throw refuse.forbidden(MEMBERSHIP_TEXT.notAdmin)
}

export function listMembers(ctx: WorkspaceContext): PublicMember[] {
  requireMemberAdmin(ctx)
  return getDb()
    .select({
      id: members.id,
      accountId: members.accountId,
      name: accounts.name,
      email: accounts.email,
      level: members.level,
      createdAt: members.createdAt,
    })
    .from(members)
    .innerJoin(accounts, eq(accounts.id, members.accountId))
    .where(eq(members.workspaceId, ctx.workspace.id))
    .orderBy(asc(members.createdAt), asc(accounts.name))
    .all()
}

type Tx = Parameters<Parameters<ReturnType<typeof getDb>['transaction']>[0]>[0]

function findTarget(tx: Tx, ctx: WorkspaceContext, memberId: string) {
  const target = tx
    .select()
    .from(members)
    .where(and(eq(members.id, memberId), eq(members.workspaceId, ctx.workspace.id)))
    .get()
  if (!target) throw refuse.notFound('Member not found.')
  return target
}

function ownerCount(tx: Tx, workspaceId: string) {
  return tx
    .select({ id: members.id })
    .from(members)
    .where(and(eq(members.workspaceId, workspaceId), eq(members.level, 'OWNER')))
    .all().length
}

const actorOf = (ctx: WorkspaceContext) => ({
  level: ctx.level,
  planActive: ctx.planActive,
  memberId: ctx.member.id,
})

export function changeMemberLevel(ctx: WorkspaceContext, memberId: string, level: Level) {
  getDb().transaction(
    (tx) => {
      const target = findTarget(tx, ctx, memberId)
      forbidIf(levelChangeRefusal(actorOf(ctx), target, level, ownerCount(tx, ctx.workspace.id)))
      assertEditorSeat(tx, ctx.workspace.id, { from: target.level, to: level, countPendingInvites: true })
      tx.update(members).set({ level }).where(eq(members.id, target.id)).run()
    },
    { behavior: 'immediate' },
  )
}

export function removeMember(ctx: WorkspaceContext, memberId: string) {
  getDb().transaction(
    (tx) => {
      const target = findTarget(tx, ctx, memberId)
      forbidIf(removalRefusal(actorOf(ctx), target, ownerCount(tx, ctx.workspace.id)))
      tx.delete(members).where(eq(members.id, target.id)).run()
    },
    { behavior: 'immediate' },
  )
}

export function leaveWorkspace(ctx: WorkspaceContext) {
  forbidIf(leaveRefusal(ctx), 'owner_cannot_leave')
  getDb().delete(members).where(eq(members.id, ctx.member.id)).run()
}

/** Deletes the workspace and, through the foreign keys, everything in it. */
export function deleteWorkspace(ctx: WorkspaceContext) {
  forbidIf(deleteWorkspaceRefusal(ctx))
  deleteWorkspaces(() => [ctx.workspace.id])
}
