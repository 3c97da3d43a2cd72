import { parseWithZod } from '@conform-to/zod/v4'
import {
  data,
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node'
import { useActionData, useLoaderData } from '@remix-run/react'
import { WorkspaceTokensSection } from '~/features/automation/ui/api-tokens'
import { WebhooksSection } from '~/features/automation/ui/webhooks-settings'
import { BillingSection, PlanSection } from '~/features/billing/ui/plan-settings'
import {
  DeleteWorkspaceSection,
  InvitesSection,
  MembersSection,
  MembershipSection,
  SharingSection,
} from '~/features/workspaces/ui/workspace-settings'
import { inviteSchema, levelChangeSchema } from '~/features/accounts/account-forms'
import { billingInfoSchema } from '~/features/billing/billing'
import { createWebhookSchema } from '~/features/automation/webhooks'
import { DomainError } from '~/lib/errors'
import { isUuid } from '~/lib/ids'
import { can } from '~/features/workspaces/permissions'
import { listWorkspaceTokens, revokeWorkspaceToken } from '~/features/automation/api-token.server'
import { planOverview, updateBillingInfo } from '~/features/billing/billing.server'
import { cancelInvite, createInvite, listInvites, resendInvite } from '~/features/workspaces/invite.server'
import {
  changeMemberLevel,
  deleteWorkspace,
  leaveWorkspace,
  listMembers,
  removeMember,
} from '~/features/workspaces/member.server'
import { listProjects } from '~/features/board/project.server'
import { setAllowExternalSharing, SHARING_NEEDS_ADMIN } from '~/features/workspaces/sharing.server'
import { createWebhook, deleteWebhook, listDeliveries, listWebhooks, sendTestPing } from '~/features/automation/webhook.server'
import { requireWorkspace } from '~/http/auth.server'
import { getEnv } from '~/lib/env.server'
import { readForm } from '~/http/public-form.server'
import { redirectWithMessage } from '~/http/toast.server'

export const meta: MetaFunction = () => [{ title: 'Workspace settings · Storymap' }]

export async function loader({ request, params }: LoaderFunctionArgs) {
  const ctx = await requireWorkspace(request, params.workspace)
  const manage = can(ctx, 'viewMembers')
  const owner = can(ctx, 'manageBilling')
  const hosted = getEnv().APP_MODE === 'hosted'
  return {
    hosted,
    plan: hosted && owner ? planOverview(ctx) : null,
    billing:
      hosted && owner
        ? { externalBillingEmail: ctx.workspace.externalBillingEmail, euVat: ctx.workspace.euVat }
        : null,
    workspaceName: ctx.workspace.name,
    me: { memberId: ctx.member.id, level: ctx.level },
    planActive: ctx.planActive,
    canLeave: can(ctx, 'leave'),
    canDelete: can(ctx, 'deleteWorkspace'),
    sharing: {
      allow: ctx.workspace.allowExternalSharing,
      refusal: can(ctx, 'manageSharing')
        ? null
        : ctx.planActive
          ? SHARING_NEEDS_ADMIN
          : 'The workspace plan is inactive.',
    },
    members: manage ? listMembers(ctx) : null,
    invites: manage ? listInvites(ctx) : null,
    confirmDelete: new URL(request.url).searchParams.get('delete') === '1',
    tokens: can(ctx, 'manageTokens') ? listWorkspaceTokens(ctx) : null,
    confirmRevoke: new URL(request.url).searchParams.get('revoke'),
    webhooks: can(ctx, 'manageWebhooks')
      ? listWebhooks(ctx).map((w) => ({ ...w, deliveries: listDeliveries(ctx, w.id) }))
      : null,
    projects: can(ctx, 'manageWebhooks') ? listProjects(ctx.workspace.id).map((p) => ({ id: p.id, title: p.title })) : [],
    confirmDeleteWebhook: new URL(request.url).searchParams.get('deleteWebhook'),
  }
}

export type SettingsLoader = typeof loader

export async function action({ request, params, context }: ActionFunctionArgs) {
  const ctx = await requireWorkspace(request, params.workspace)
  const here = `/${ctx.workspace.name}/settings`
  const formData = await readForm(request)
  const intent = formData.get('intent')
  // server/rate-limits.ts counted this post as an invite (or resend) and found it over the limit.
  if (context.rateLimit) {
    const reply = parseWithZod(formData, { schema: inviteSchema }).reply({
      formErrors: [context.rateLimit.message],
    })
    return data({ intent: 'invite', result: reply }, { status: 429 })
  }
  const rawId = formData.get('id')
  // A malformed id finds nothing, so the model answers 'not found'.
  const id = isUuid(rawId) ? rawId.toLowerCase() : '00000000-0000-0000-0000-000000000000'
  // Leaving or deleting lands on the workspace list, a page that does not redirect on, so the banner shows there.
  const done = (message: string, to = here) => redirectWithMessage(to, { type: 'success', message })
  try {
    switch (intent) {
      case 'leave':
        leaveWorkspace(ctx)
        return done('Left workspace', '/account/workspaces')
      case 'deleteWorkspace':
        deleteWorkspace(ctx)
        return done('Workspace deleted', '/account/workspaces')
      case 'invite': {
        const submission = parseWithZod(formData, { schema: inviteSchema })
        if (submission.status !== 'success') return { intent, result: submission.reply() }
        const { mailSent } = await createInvite(ctx, submission.value)
        if (!mailSent) {
          return redirectWithMessage(here, {
            type: 'fail',
            message: 'Invite saved, but the email could not be sent. Please resend it.',
          })
        }
        return done('Invite sent')
      }
      case 'resendInvite': {
        const { mailSent } = await resendInvite(ctx, id)
        return mailSent
          ? done('Invite resent')
          : redirectWithMessage(here, { type: 'fail', message: 'Something went wrong.' })
      }
      case 'cancelInvite':
        cancelInvite(ctx, id)
        return done('Invite canceled')
      case 'changeRole': {
        const parsed = levelChangeSchema.safeParse({ level: formData.get('level') })
        if (!parsed.success) return redirectWithMessage(here, { type: 'fail', message: 'Required.' })
        changeMemberLevel(ctx, id, parsed.data.level)
        return done('Role changed')
      }
      case 'removeMember':
        removeMember(ctx, id)
        return done('Membership removed')
      case 'revokeToken':
        revokeWorkspaceToken(ctx, id)
        return done('Token revoked')
      case 'createWebhook': {
        const submission = parseWithZod(formData, { schema: createWebhookSchema })
        if (submission.status !== 'success') return { intent, result: submission.reply(), created: null }
        try {
          const { webhook, secret } = await createWebhook(ctx, submission.value)
          // The secret is in this answer only; a reload does not show it again.
          return { intent, result: submission.reply({ resetForm: true }), created: { url: webhook.url, secret } }
        } catch (error) {
          if (error instanceof DomainError && error.field === 'url')
            return { intent, result: submission.reply({ fieldErrors: { url: [error.message] } }), created: null }
          throw error
        }
      }
      case 'testWebhook': {
        const delivery = await sendTestPing(ctx, id)
        return delivery.state === 'delivered'
          ? done(`Test delivered (${delivery.status})`)
          : redirectWithMessage(here, { type: 'fail', message: `Test failed: ${delivery.status ? `HTTP ${delivery.status}` : 'no answer'}` })
      }
      case 'deleteWebhook':
        deleteWebhook(ctx, id)
        return done('Endpoint deleted')
      case 'externalSharing':
        // An unchecked box is absent from the form.
        setAllowExternalSharing(ctx, formData.get('allowExternalSharing') === 'on')
        return done('Settings changed')
      case 'billingInfo': {
        const submission = parseWithZod(formData, { schema: billingInfoSchema })
        if (submission.status !== 'success') return { intent, result: submission.reply() }
        await updateBillingInfo(ctx, submission.value)
        return done('Settings changed')
      }
    }
  } catch (error) {
    if (error instanceof DomainError)
      return redirectWithMessage(here, { type: 'fail', message: error.message })
    throw error
  }
  throw redirect(here)
}

export default function WorkspaceSettingsPage() {
  const data = useLoaderData<typeof loader>()
  const reply = useActionData<typeof action>()
  return (
    <main className="page stack">
      <h1>Workspace settings</h1>
      <MembershipSection level={data.me.level} canLeave={data.canLeave} />
      {data.hosted ? <PlanSection workspaceName={data.workspaceName} plan={data.plan} /> : null}
      {data.billing ? (
        <BillingSection
          billing={data.billing}
          lastResult={reply?.intent === 'billingInfo' ? reply.result : undefined}
        />
      ) : null}
      <SharingSection allow={data.sharing.allow} refusal={data.sharing.refusal} />
      {data.invites ? (
        <InvitesSection
          invites={data.invites}
          planActive={data.planActive}
          lastResult={reply?.intent === 'invite' ? reply.result : undefined}
        />
      ) : null}
      {data.members ? (
        <MembersSection members={data.members} me={data.me} planActive={data.planActive} />
      ) : null}
      {data.tokens ? <WorkspaceTokensSection tokens={data.tokens} confirmRevoke={data.confirmRevoke} /> : null}
      {data.webhooks ? (
        <WebhooksSection
          webhooks={data.webhooks}
          projects={data.projects}
          created={reply?.intent === 'createWebhook' && 'created' in reply ? reply.created : null}
          lastResult={reply?.intent === 'createWebhook' ? reply.result : undefined}
          confirmDelete={data.confirmDeleteWebhook}
        />
      ) : null}
      {data.canDelete ? <DeleteWorkspaceSection confirm={data.confirmDelete} /> : null}
    </main>
  )
}
