import { and, desc, eq, gt } from 'drizzle-orm'
import crypto from 'node:crypto'
import { getDb, type Db } from '~/lib/db/db.server'
import { accounts, invites, members, workspaces } from '~/lib/db/schema'
import { DomainError, refuse } from '~/lib/errors'
import { normalizeEmail } from '~/lib/email-address'
import { cancelInviteRefusal, invitationForText, inviteRefusal } from './membership'
import type { Level } from '../map/permissions'
import { sha256 } from '~/lib/crypto.server'
import { appLink, mailConfigured, sendMail } from '~/lib/email.server'
import { getEnv } from '~/lib/env.server'
import { invitationMessage } from '~/features/notifications/index.server'
import { assertEditorSeat } from './seats.server'
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
  return pendingInvites(ctx).map(publicInvite)
}

function pendingInvites(ctx: WorkspaceContext) {
  return getDb()
    .select()
    .from(invites)
    .where(eq(invites.workspaceId, ctx.workspace.id))
    .orderBy(desc(invites.createdAt))
    .all()
}

/**
 * An invitation's code, made from the invite itself (its id and expiry, which a resend renews)
 * with a key derived from SESSION_SECRET: 256 bits no one can guess without the secret, yet the
 * server can make the same again, so a workspace without mail can show an invite's link to its
 * owners and admins (issue 43, ADR "Invitation links without mail"). Only its hash is stored.
 */
function inviteCode(invite: Pick<Invite, 'id' | 'expiresAt'>): string {
  const key = Buffer.from(
    crypto.hkdfSync('sha256', getEnv().SESSION_SECRET, 'storymap', 'invitation-code', 32),
  )
  return crypto.createHmac('sha256', key).update(`${invite.id}|${invite.expiresAt}`).digest('base64url')
}

const invitationPath = (code: string) => `/account/invitation/${code}`

/**
 * The settings page's pending invitations. Without mail (SMTP_URL unset) nothing reaches the
 * invited person, so owners and admins get each invitation's link to pass on themselves (null
 * for one whose code this server cannot make again: sent before this version, or before
 * SESSION_SECRET changed; a resend makes a new one). With mail the link stays in the mail only.
 */
export function invitesForSettings(ctx: WorkspaceContext) {
  requireMemberAdmin(ctx)
  const showLinks = !mailConfigured()
  return pendingInvites(ctx).map((invite) => {
    const code = showLinks ? inviteCode(invite) : null
    const link = code && sha256(code) === invite.codeHash ? appLink(invitationPath(code)) : null
    return { ...publicInvite(invite), link }
  })
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
  const id = crypto.randomUUID()
  const expiresAt = new Date(now.getTime() + INVITE_LIFETIME_MS).toISOString()
  const code = inviteCode({ id, expiresAt })
  const invite = db.transaction(
    (tx) => {
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
          id,
          workspaceId: ctx.workspace.id,
          email,
          level: input.level,
          codeHash: sha256(code),
          createdBy: ctx.account.id,
          createdByName: ctx.account.name,
          createdAt: now.toISOString(),
          expiresAt,
        })
        .returning()
        .get()
    },
    { behavior: 'immediate' },
  )
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

/** A resend mails a new code (only hashes are kept; the old link stops working) and restarts the 7 days. */
export async function resendInvite(ctx: WorkspaceContext, inviteId: string, now = new Date()) {
  requireMemberAdmin(ctx)
  const current = findInvite(ctx, inviteId)
  const refusal = inviteRefusal(ctx, current.level, true)
  if (refusal) throw refuse.forbidden(refusal)
  // A later expiry however soon the resend comes: the code is made from it, so the old link dies.
  const issued = Math.max(now.getTime(), Date.parse(current.expiresAt) - INVITE_LIFETIME_MS + 1)
  const expiresAt = new Date(issued + INVITE_LIFETIME_MS).toISOString()
  const code = inviteCode({ id: current.id, expiresAt })
  const invite = getDb()
    .update(invites)
    .set({ codeHash: sha256(code), expiresAt })
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
  return getDb().transaction((tx) => joinByInvitation(tx, account, findLiveInvitation(tx, code, now), now), {
    behavior: 'immediate',
  })
}
