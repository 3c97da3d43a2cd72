import { and, desc, eq, gt } from 'drizzle-orm'
import crypto from 'node:crypto'
import { getDb, type Db } from '~/lib/db/db.server'
import { accounts, invites, members, workspaces } from '~/lib/db/schema'
import { DomainError, refuse } from '~/lib/errors'
import { normalizeEmail } from '~/lib/email-address'
import { cancelInviteRefusal, invitationForText, inviteRefusal } from './membership'
import type { Level } from './permissions'
import { randomKey, sha256 } from '~/lib/crypto.server'
import { sendMail } from '~/lib/email.server'
import { invitationMessage } from '~/features/notifications/email-messages.server'
import { assertEditorSeat } from '~/features/billing/billing.server'
import { requireMemberAdmin } from './member.server'
import type { WorkspaceContext } from './workspace.server'

type Account = typeof accounts.$inferSelect

const INVITE_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000
export const INVITATION_NOT_FOUND = 'Invitation not found.'

type Invite = typeof invites.$inferSelect
/** Never carries the code. */
export function publicInvite(i: Invite) {
  return { id: i.id, email: i.email, level: i.level, createdByName: i.createdByName, createdAt: i.createdAt }
}

export function listInvites(ctx: WorkspaceContext) {
  requireMemberAdmin(ctx)
  return getDb()
    .select()
    .from(invites)
    .where(eq(invites.workspaceId, ctx.workspace.id))
    .orderBy(desc(invites.createdAt))
    .all()
    .map(publicInvite)
}

function mailInvitation(ctx: WorkspaceContext, invite: Invite, code: string) {
  return sendMail(invitationMessage(invite.email, ctx.account.name, ctx.workspace.name, invite.level, code))
}

/**
 * Sends an invitation (replacing a pending one to the same address). The invite is kept even
 * when the mail fails; `mailSent` tells.
 */
export async function createInvite(
  ctx: WorkspaceContext,
  input: { email: string; level: Level },
  now = new Date(),
) {
  const refusal = inviteRefusal(ctx, input.level)
  if (refusal) throw refuse.forbidden(refusal)
  const email = normalizeEmail(input.email)
  const db = getDb()
  const code = randomKey()
  const invite = db.transaction((tx) => {
    const already = tx
      .select({ id: members.id })
      .from(members)
      .innerJoin(accounts, eq(accounts.id, members.accountId))
      .where(and(eq(members.workspaceId, ctx.workspace.id), eq(accounts.email, email)))
      .get()
    if (already)
      throw refuse.conflict('already_member', 'This person is already a member of the workspace.', 'email')
    const replaced = tx
      .select({ level: invites.level })
      .from(invites)
      .where(and(eq(invites.workspaceId, ctx.workspace.id), eq(invites.email, email)))
      .get()
    assertEditorSeat(
      tx,
      ctx.workspace.id,
      { from: replaced?.level ?? null, to: input.level, countPendingInvites: true },
      now,
    )
    tx.delete(invites)
      .where(and(eq(invites.workspaceId, ctx.workspace.id), eq(invites.email, email)))
      .run()
    return tx
      .insert(invites)
      .values({
        id: crypto.randomUUID(),
        workspaceId: ctx.workspace.id,
        email,
        level: input.level,
        codeHash: sha256(code),
        createdBy: ctx.account.id,
        createdByName: ctx.account.name,
        createdAt: now.toISOString(),
        expiresAt: new Date(now.getTime() + INVITE_LIFETIME_MS).toISOString(),
      })
      .returning()
      .get()
  })
  return { invite: publicInvite(invite), mailSent: await mailInvitation(ctx, invite, code) }
}

function findInvite(ctx: WorkspaceContext, inviteId: string) {
  const invite = getDb()
    .select()
    .from(invites)
    .where(and(eq(invites.id, inviteId), eq(invites.workspaceId, ctx.workspace.id)))
    .get()
  if (!invite) throw refuse.notFound('Invite not found.')
  return invite
}

/** A resend mails a new code (only hashes are kept) and restarts the 7 days. */
export async function resendInvite(ctx: WorkspaceContext, inviteId: string, now = new Date()) {
  requireMemberAdmin(ctx)
  const current = findInvite(ctx, inviteId)
  const refusal = inviteRefusal(ctx, current.level, true)
  if (refusal) throw refuse.forbidden(refusal)
  const code = randomKey()
  const invite = getDb()
    .update(invites)
    .set({ codeHash: sha256(code), expiresAt: new Date(now.getTime() + INVITE_LIFETIME_MS).toISOString() })
    .where(eq(invites.id, current.id))
    .returning()
    .get()
  return { invite: publicInvite(invite), mailSent: await mailInvitation(ctx, invite, code) }
}

export function cancelInvite(ctx: WorkspaceContext, inviteId: string) {
  requireMemberAdmin(ctx)
  const invite = findInvite(ctx, inviteId)
  const refusal = cancelInviteRefusal(ctx, invite.level)
  if (refusal) throw refuse.forbidden(refusal)
  getDb().delete(invites).where(eq(invites.id, invite.id)).run()
}

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]
export type LiveInvitation = { invite: Invite; workspaceName: string }

/** The pending invitation behind a code, or 404 'Invitation not found.' (unknown, expired or used). */
export function findLiveInvitation(db: Db | Tx, code: string, now = new Date()): LiveInvitation {
  const row = db
    .select({ invite: invites, workspaceName: workspaces.name })
    .from(invites)
    .innerJoin(workspaces, eq(workspaces.id, invites.workspaceId))
    .where(and(eq(invites.codeHash, sha256(code)), gt(invites.expiresAt, now.toISOString())))
    .get()
  if (!row) throw refuse.notFound(INVITATION_NOT_FOUND, 'invitation_not_found')
  return row
}

/** GET /users/invite/{code}: what SPEC §7 gives, the workspace and the level. */
export function getInvitation(code: string, now = new Date()) {
  const row = findLiveInvitation(getDb(), code, now)
  return { workspaceName: row.workspaceName, level: row.invite.level }
}

/** What the invitation and sign-up pages show: who invited whom, to which workspace, at which level. */
export function describeInvitation(code: string, now = new Date()) {
  const row = findLiveInvitation(getDb(), code, now)
  return {
    workspaceName: row.workspaceName,
    level: row.invite.level,
    invitedByName: row.invite.createdByName,
    email: row.invite.email,
  }
}

/**
 * An invitation is for the address it was mailed to: only an account with that address may use
 * it (a forwarded or leaked link lets no one else in). Ask for one to your own address.
 */
export function assertInvitedEmail(invitation: LiveInvitation, email: string) {
  if (normalizeEmail(email) !== invitation.invite.email)
    throw new DomainError(
      'forbidden',
      'invitation_email_mismatch',
      invitationForText(invitation.invite.email),
      'email',
    )
}

/**
 * Makes the account a member at the invited level and uses up the code, inside the caller's
 * transaction. A member already is told so before anything else.
 */
export function joinByInvitation(
  tx: Tx,
  account: Pick<Account, 'id' | 'email'>,
  invitation: LiveInvitation,
  now: Date,
) {
  const { invite, workspaceName } = invitation
  const member = tx
    .select({ id: members.id })
    .from(members)
    .where(and(eq(members.workspaceId, invite.workspaceId), eq(members.accountId, account.id)))
    .get()
  if (member)
    throw refuse.conflict('already_member', `You are already a member of the workspace ${workspaceName}.`)
  assertInvitedEmail(invitation, account.email)
  assertEditorSeat(tx, invite.workspaceId, { from: null, to: invite.level, countPendingInvites: false }, now)
  tx.insert(members)
    .values({
      id: crypto.randomUUID(),
      workspaceId: invite.workspaceId,
      accountId: account.id,
      level: invite.level,
      createdAt: now.toISOString(),
    })
    .run()
  tx.delete(invites).where(eq(invites.id, invite.id)).run()
  return { workspaceId: invite.workspaceId, workspaceName, level: invite.level }
}

/** Joins the signed-in account, whose address must be the invited one, to the inviting workspace. */
export function acceptInvitation(account: Account, code: string, now = new Date()) {
  return getDb().transaction((tx) => joinByInvitation(tx, account, findLiveInvitation(tx, code, now), now))
}
