/**
 * Pure rules for members, invitations and leaving (SPEC §6 plus the server-side rules of
 * issue #5). Each check returns null when allowed, or the refusal text.
 */
import { can, isOwner, type Actor, type Level } from '~/features/map/permissions'

export const MEMBERSHIP_TEXT = {
  notAdmin: 'Only an admin or owner of the workspace can do this.',
  planInactive: 'The plan of this workspace is inactive.',
  ownLevel: 'You cannot change your own level.',
  ownRemoval: 'You cannot remove yourself. Use Leave workspace instead.',
  ownerOnly: 'Only an owner can make, change or remove an owner.',
  keepOwner: 'A workspace must keep at least one owner.',
  ownerLeave:
    'An owner cannot leave the workspace. Make another member owner and ask them to change your level first.',
  notOwner: 'Only an owner of the workspace can delete it.',
} as const

/** An invitation is for the address it was sent to; another account is told so. */
export const invitationForText = (email: string) => `This invitation is for ${email}.`

export type MemberRef = { id: string; level: Level }

/** Admin actions are refused for a low level first, then for an inactive plan. */
function adminAction(
  actor: Actor,
  action: 'invite' | 'resendInvite' | 'changeRole' | 'cancelInvite' | 'removeMember',
) {
  if (!can({ ...actor, planActive: true }, 'manageMembers')) return MEMBERSHIP_TEXT.notAdmin
  if (!can(actor, action)) return MEMBERSHIP_TEXT.planInactive
  return null
}

/** Changing `target` to `level`; `ownerCount` is the number of OWNERs in the workspace now. */
export function levelChangeRefusal(
  actor: Actor & { memberId: string },
  target: MemberRef,
  level: Level,
  ownerCount: number,
) {
  if (actor.memberId === target.id) return MEMBERSHIP_TEXT.ownLevel
  const refusal = adminAction(actor, 'changeRole')
  if (refusal) return refusal
  if (!can(actor, 'manageOwners') && (isOwner(target.level) || isOwner(level)))
    return MEMBERSHIP_TEXT.ownerOnly
  if (isOwner(target.level) && !isOwner(level) && ownerCount <= 1) return MEMBERSHIP_TEXT.keepOwner
  return null
}

export function removalRefusal(actor: Actor & { memberId: string }, target: MemberRef, ownerCount: number) {
  if (actor.memberId === target.id) return MEMBERSHIP_TEXT.ownRemoval
  const refusal = adminAction(actor, 'removeMember')
  if (refusal) return refusal
  if (!can(actor, 'manageOwners') && isOwner(target.level)) return MEMBERSHIP_TEXT.ownerOnly
  if (isOwner(target.level) && ownerCount <= 1) return MEMBERSHIP_TEXT.keepOwner
  return null
}

export function leaveRefusal(actor: Actor) {
  return can(actor, 'leave') ? null : MEMBERSHIP_TEXT.ownerLeave
}

export function deleteWorkspaceRefusal(actor: Actor) {
  return can(actor, 'deleteWorkspace') ? null : MEMBERSHIP_TEXT.notOwner
}

/** Sending or resending an invite at `level`. */
export function inviteRefusal(actor: Actor, level: Level, resend = false) {
  const refusal = adminAction(actor, resend ? 'resendInvite' : 'invite')
  if (refusal) return refusal
  if (!can(actor, 'manageOwners') && isOwner(level)) return MEMBERSHIP_TEXT.ownerOnly
  return null
}

/** Cancelling works on an inactive plan too. */
export function cancelInviteRefusal(actor: Actor, level: Level) {
  const refusal = adminAction(actor, 'cancelInvite')
  if (refusal) return refusal
  if (!can(actor, 'manageOwners') && isOwner(level)) return MEMBERSHIP_TEXT.ownerOnly
  return null
}

export type AccountMembership = {
  workspaceId: string
  workspaceName: string
  level: Level
  memberCount: number
  ownerCount: number
}

export type AccountDeletionPlan = { ok: true; deleteWorkspaceIds: string[] } | { ok: false; message: string }

/**
 * Deleting an account: workspaces where it is the only member go with it; it is refused while
 * the account is the last OWNER of a workspace that has other members.
 */
export function planAccountDeletion(memberships: AccountMembership[]): AccountDeletionPlan {
  const blocking = memberships.find((m) => m.memberCount > 1 && isOwner(m.level) && m.ownerCount <= 1)
  if (blocking) {
    return {
      ok: false,
      message: `You are the last owner of the workspace ${blocking.workspaceName}. Make another member an owner or delete the workspace first.`,
    }
  }
  return {
    ok: true,
    deleteWorkspaceIds: memberships.filter((m) => m.memberCount <= 1).map((m) => m.workspaceId),
  }
}
