import { parseWithZod } from '@conform-to/zod/v4'
import type { SubmissionResult } from '@conform-to/react'
import { postedId, type SettingsOutcome } from '~/http/settings-intents.server'
import { inviteSchema, levelChangeSchema } from './workspace-forms'
import { mailConfigured } from '~/lib/email.server'
import { cancelInvite, createInvite, resendInvite } from './invite.server'
import { changeMemberLevel, deleteWorkspace, leaveWorkspace, removeMember } from './member.server'
import { setAllowExternalSharing } from './sharing.server'
import type { WorkspaceContext } from './workspace.server'

type Input = { ctx: WorkspaceContext; formData: FormData }

/** Without mail nothing reaches the invited person: the owner or admin passes the link on (issue 43). */
export const INVITE_SAVED_WITHOUT_MAIL =
  'Invite saved. Mail is not set up, so nothing was sent: copy its invitation link below.'
export const INVITE_RENEWED_WITHOUT_MAIL =
  'New invitation link made; the old one no longer works. Mail is not set up: copy it below.'
export type InviteReply = { intent: 'invite'; result: SubmissionResult<string[]> }

/**
 * The workspace's own intents on its settings page (SPEC §5, §6): membership, invitations,
 * levels, sharing, deletion. Leaving or deleting lands on the workspace list, a page that does
 * not redirect on, so its message shows there.
 */
export const workspaceIntents = {
  leave({ ctx }: Input): SettingsOutcome<never> {
    leaveWorkspace(ctx)
    return { done: 'Left workspace', to: '/account/workspaces' }
  },
  deleteWorkspace({ ctx }: Input): SettingsOutcome<never> {
    deleteWorkspace(ctx)
    return { done: 'Workspace deleted', to: '/account/workspaces' }
  },
  async invite({ ctx, formData }: Input): Promise<SettingsOutcome<InviteReply>> {
    const submission = parseWithZod(formData, { schema: inviteSchema })
    if (submission.status !== 'success') return { reply: { intent: 'invite', result: submission.reply() } }
    const { mailSent } = await createInvite(ctx, submission.value)
    if (!mailConfigured()) return { done: INVITE_SAVED_WITHOUT_MAIL }
    return mailSent
      ? { done: 'Invite sent' }
      : { failed: 'Invite saved, but the email could not be sent. Please resend it.' }
  },
  async resendInvite({ ctx, formData }: Input): Promise<SettingsOutcome<never>> {
    const { mailSent } = await resendInvite(ctx, postedId(formData))
    if (!mailConfigured()) return { done: INVITE_RENEWED_WITHOUT_MAIL }
    return mailSent ? { done: 'Invite resent' } : { failed: 'Something went wrong.' }
  },
  cancelInvite({ ctx, formData }: Input): SettingsOutcome<never> {
    cancelInvite(ctx, postedId(formData))
    return { done: 'Invite canceled' }
  },
  changeRole({ ctx, formData }: Input): SettingsOutcome<never> {
    const parsed = levelChangeSchema.safeParse({ level: formData.get('level') })
    if (!parsed.success) return { failed: 'Required.' }
    changeMemberLevel(ctx, postedId(formData), parsed.data.level)
    return { done: 'Role changed' }
  },
  removeMember({ ctx, formData }: Input): SettingsOutcome<never> {
    removeMember(ctx, postedId(formData))
    return { done: 'Membership removed' }
  },
  externalSharing({ ctx, formData }: Input): SettingsOutcome<never> {
    // An unchecked box is absent from the form.
    setAllowExternalSharing(ctx, formData.get('allowExternalSharing') === 'on')
    return { done: 'Settings changed' }
  },
}
