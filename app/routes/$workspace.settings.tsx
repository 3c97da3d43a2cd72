import type { Route } from './+types/$workspace.settings'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, type MetaFunction } from 'react-router'
import { useActionData, useLoaderData } from 'react-router'
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
import { inviteSchema } from '~/features/workspaces/workspace-forms'
import { can } from '~/features/map/permissions'
import { listWorkspaceTokens } from '~/features/automation/api-token.server'
import { workspaceAutomationIntents } from '~/features/automation/settings-intents.server'
import { planOverview } from '~/features/billing/billing.server'
import { billingIntents } from '~/features/billing/settings-intents.server'
import { invitesForSettings } from '~/features/workspaces/invite.server'
import { mailConfigured } from '~/lib/email.server'
import { listMembers } from '~/features/workspaces/member.server'
import { listProjects } from '~/features/map/project.server'
import { workspaceIntents } from '~/features/workspaces/settings-intents.server'
import { SHARING_NEEDS_ADMIN } from '~/features/workspaces/sharing.server'
import { listDeliveries, listWebhooks } from '~/features/automation/webhook.server'
import { requireWorkspace } from '~/http/auth.server'
import { answerIntent } from '~/http/settings-intents.server'
import { getEnv } from '~/lib/env.server'
import { readForm } from '~/http/public-form.server'
import { listOwnTemplates, templateIntents } from '~/features/templates/index.server'
import { TemplatesSection } from '~/features/templates/ui'

export const meta: MetaFunction = () => [{ title: 'Workspace settings · Storymap' }]

export async function loader({ request, params }: Route.LoaderArgs) {
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
    invites: manage ? invitesForSettings(ctx) : null,
    mailSetUp: mailConfigured(),
    confirmDelete: new URL(request.url).searchParams.get('delete') === '1',
    tokens: can(ctx, 'manageTokens') ? listWorkspaceTokens(ctx) : null,
    confirmRevoke: new URL(request.url).searchParams.get('revoke'),
    webhooks: can(ctx, 'manageWebhooks')
      ? listWebhooks(ctx).map((w) => ({ ...w, deliveries: listDeliveries(ctx, w.id) }))
      : null,
    projects: can(ctx, 'manageWebhooks')
      ? listProjects(ctx.workspace.id).map((p) => ({ id: p.id, title: p.title }))
      : [],
    confirmDeleteWebhook: new URL(request.url).searchParams.get('deleteWebhook'),
    // The workspace's own templates (CONTRACT §16), for OWNERs and ADMINs; changed on an active plan.
    templates: can({ ...ctx, planActive: true }, 'manageTemplates')
      ? {
          list: listOwnTemplates(ctx),
          canManage: can(ctx, 'manageTemplates'),
          renaming: new URL(request.url).searchParams.get('renameTemplate'),
          deleting: new URL(request.url).searchParams.get('deleteTemplate'),
          focused: new URL(request.url).searchParams.get('template'),
        }
      : null,
  }
}

export type SettingsLoader = typeof loader

/** Every intent the page's forms post, by feature. */
const INTENTS = { ...workspaceIntents, ...workspaceAutomationIntents, ...billingIntents, ...templateIntents }

export async function action({ request, params, context }: Route.ActionArgs) {
  const ctx = await requireWorkspace(request, params.workspace)
  const formData = await readForm(request)
  // server/rate-limits.ts counted this post as an invite (or resend) and found it over the limit.
  if (context.rateLimit) {
    const reply = parseWithZod(formData, { schema: inviteSchema }).reply({
      formErrors: [context.rateLimit.message],
    })
    return data({ intent: 'invite' as const, result: reply }, { status: 429 })
  }
  return answerIntent(`/${ctx.workspace.name}/settings`, INTENTS, formData, { ctx, formData })
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
          mailSetUp={data.mailSetUp}
          planActive={data.planActive}
          lastResult={reply?.intent === 'invite' ? reply.result : undefined}
        />
      ) : null}
      {data.members ? (
        <MembersSection members={data.members} me={data.me} planActive={data.planActive} />
      ) : null}
      {data.tokens ? (
        <WorkspaceTokensSection tokens={data.tokens} confirmRevoke={data.confirmRevoke} />
      ) : null}
      {data.webhooks ? (
        <WebhooksSection
          webhooks={data.webhooks}
          projects={data.projects}
          created={reply?.intent === 'createWebhook' && 'created' in reply ? reply.created : null}
          lastResult={reply?.intent === 'createWebhook' ? reply.result : undefined}
          confirmDelete={data.confirmDeleteWebhook}
        />
      ) : null}
      {data.templates ? (
        <TemplatesSection
          templates={data.templates.list}
          canManage={data.templates.canManage}
          renaming={data.templates.renaming}
          deleting={data.templates.deleting}
          focused={data.templates.focused}
          lastRename={reply?.intent === 'renameTemplate' ? reply : undefined}
        />
      ) : null}
      {data.canDelete ? <DeleteWorkspaceSection confirm={data.confirmDelete} /> : null}
    </main>
  )
}
