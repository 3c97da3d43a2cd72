import type { Route } from './+types/account.settings'
import type { MetaFunction } from 'react-router'
import { Link, useActionData, useLoaderData } from 'react-router'
import { accountTokenIntents } from '~/features/automation/settings-intents.server'
import { AccountTokensSection } from '~/features/automation/ui/api-tokens'
import { listAccountTokens } from '~/features/automation/api-token.server'
import { hasPassword } from '~/features/accounts/oidc'
import { publicAccount } from '~/features/accounts/account.server'
import { findLinkedIdentity } from '~/features/accounts/oidc-identity.server'
import { issuerKey, oidcSettings } from '~/features/accounts/oidc.server'
import { accountIntents } from '~/features/accounts/settings-intents.server'
import { SingleSignOnCard } from '~/features/accounts/ui/single-sign-on'
import {
  DeleteAccountCard,
  EmailCard,
  NameCard,
  PasswordCard,
  VerifyEmailCard,
} from '~/features/accounts/ui/account-settings'
import { notificationIntents, notificationSettings } from '~/features/notifications/notifications.server'
import { NotificationSettingsCard } from '~/features/notifications/ui/notification-settings'
import { listAccountWorkspaces } from '~/features/workspaces/workspace.server'
import { requireAccount } from '~/http/auth.server'
import { answerIntent } from '~/http/settings-intents.server'
import { getEnv } from '~/lib/env.server'
import { mailConfigured } from '~/lib/email.server'

export const meta: MetaFunction = () => [{ title: 'Account settings · Storymap' }]

const HERE = '/account/settings'

export async function loader({ request }: Route.LoaderArgs) {
  const account = await requireAccount(request)
  const search = new URL(request.url).searchParams
  return {
    account: publicAccount(account),
    confirmDelete: search.get('delete') === '1',
    tokens: listAccountTokens(account.id),
    workspaces: listAccountWorkspaces(account.id).map(({ workspace }) => ({
      id: workspace.id,
      name: workspace.name,
    })),
    confirmRevoke: search.get('revoke'),
    password: hasPassword(account.passwordHash),
    oidcOnly: getEnv().OIDC_ONLY,
    sso: singleSignOnOf(account.id),
    notifications: notificationSettings(account.id),
    mailSetUp: mailConfigured(),
  }
}

/** The provider's name and the identity linked to the account (CONTRACT §11), when single sign-on is on. */
function singleSignOnOf(accountId: string) {
  const settings = oidcSettings()
  if (!settings) return null
  const identity = findLinkedIdentity(accountId, issuerKey(settings.issuer))
  return { name: settings.name, email: identity?.email ?? null }
}

/** Every intent the page's forms post, by feature. */
const INTENTS = { ...accountIntents, ...accountTokenIntents, ...notificationIntents }

export async function action({ request }: Route.ActionArgs) {
  const account = await requireAccount(request)
  const formData = await request.formData()
  return answerIntent(HERE, INTENTS, formData, { account, formData, request })
}

export default function AccountSettingsPage() {
  const {
    account,
    confirmDelete,
    tokens,
    workspaces,
    confirmRevoke,
    password,
    oidcOnly,
    sso,
    notifications,
    mailSetUp,
  } = useLoaderData<typeof loader>()
  const reply = useActionData<typeof action>()
  const formReply = reply && reply.intent !== 'createToken' ? reply : undefined
  return (
    <div className="stack" style={{ width: '100%', maxWidth: 720 }}>
      <h1>Account settings</h1>
      <VerifyEmailCard account={account} mailSetUp={mailSetUp} />
      <EmailCard account={account} reply={formReply} />
      <NameCard account={account} reply={formReply} />
      {sso ? <SingleSignOnCard name={sso.name} email={sso.email} canUnlink={password} /> : null}
      {/* With single sign-on only, an account without a password gets none. */}
      {oidcOnly && !password ? null : <PasswordCard email={account.email} password={password} />}
      <NotificationSettingsCard mentions={notifications.mentions} watching={notifications.watching} />
      <AccountTokensSection
        tokens={tokens}
        workspaces={workspaces}
        created={reply?.intent === 'createToken' ? reply.created : null}
        lastResult={reply?.intent === 'createToken' ? reply.result : undefined}
        confirmRevoke={confirmRevoke}
      />
      <DeleteAccountCard confirm={confirmDelete} here={HERE} />
      <p className="muted">
        <Link to="/">Back to the app</Link>
      </p>
    </div>
  )
}
