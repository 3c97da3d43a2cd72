import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import {
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import type { ReactNode } from 'react'
import { AccountTokensSection } from '~/features/automation/ui/api-tokens'
import { NotificationSettingsCard } from '~/features/notifications/ui/notification-settings'
import { SingleSignOnCard } from '~/features/accounts/ui/single-sign-on'
import { ErrorList, Field, VALIDATE_ON_SUBMIT } from '~/ui/forms'
import { emailChangeSchema, nameChangeSchema } from '~/features/accounts/account-forms'
import { createTokenSchema } from '~/features/automation/api-tokens'
import { DomainError } from '~/lib/errors'
import { hasPassword } from '~/features/accounts/oidc'
import { publicAccount } from '~/features/accounts/account.server'
import {
  changeName,
  deleteAccount,
  requestEmailChange,
  resendVerification,
} from '~/features/accounts/account-settings.server'
import { createToken, listAccountTokens, revokeAccountToken } from '~/features/automation/api-token.server'
import { notificationSettings, updateNotificationSettings } from '~/features/notifications/notifications.server'
import { destroySession } from '~/features/accounts/session.server'
import { findLinkedIdentity, unlinkIdentity } from '~/features/accounts/oidc-identity.server'
import { listAccountWorkspaces } from '~/features/workspaces/workspace.server'
import { requireAccount } from '~/http/auth.server'
import { getEnv } from '~/lib/env.server'
import { issuerKey, oidcSettings } from '~/features/accounts/oidc.server'
import { redirectWithMessage } from '~/http/toast.server'

export const meta: MetaFunction = () => [{ title: 'Account settings · Storymap' }]

const HERE = '/account/settings'
const FAILED = 'Something went wrong.'

export async function loader({ request }: LoaderFunctionArgs) {
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
  }
}

/** The provider's name and the identity linked to the account (CONTRACT §11), when single sign-on is on. */
function singleSignOnOf(accountId: string) {
  const settings = oidcSettings()
  if (!settings) return null
  const identity = findLinkedIdentity(accountId, issuerKey(settings.issuer))
  return { name: settings.name, email: identity?.email ?? null }
}

type Reply =
  | { intent: 'email' | 'name'; result: SubmissionResult<string[]> }
  | {
      intent: 'createToken'
      result: SubmissionResult<string[]>
      created: { name: string; secret: string } | null
    }

export async function action({ request }: ActionFunctionArgs) {
  const account = await requireAccount(request)
  const formData = await request.formData()
  const intent = formData.get('intent')
  const success = (message: string) => redirectWithMessage(HERE, { type: 'success', message })
  const fail = (message: string) => redirectWithMessage(HERE, { type: 'fail', message })

  if (intent === 'resend') {
    try {
      await resendVerification(account)
      return success('Mail sent.')
    } catch (error) {
      if (error instanceof DomainError) return fail(FAILED)
      throw error
    }
  }
  if (intent === 'email') {
    const submission = parseWithZod(formData, { schema: emailChangeSchema })
    if (submission.status !== 'success') return { intent, result: submission.reply() } satisfies Reply
    try {
      await requestEmailChange(account, submission.value.email)
      return success('An email has been sent to your new email with instructions.')
    } catch (error) {
      if (!(error instanceof DomainError)) throw error
      if (error.field)
        return {
          intent,
          result: submission.reply({ fieldErrors: { email: [error.message] } }),
        } satisfies Reply
      return fail(FAILED)
    }
  }
  if (intent === 'name') {
    const submission = parseWithZod(formData, { schema: nameChangeSchema })
    if (submission.status !== 'success') return { intent, result: submission.reply() } satisfies Reply
    changeName(account, submission.value.name)
    return success('Name is changed. Refresh your browser for it to take effect.')
  }
  if (intent === 'createToken') {
    const submission = parseWithZod(formData, { schema: createTokenSchema })
    if (submission.status !== 'success')
      return { intent, result: submission.reply(), created: null } satisfies Reply
    try {
      const { token, secret } = createToken(account.id, submission.value)
      // The secret is in this answer only: it is never stored, and a reload does not show it again.
      return {
        intent,
        result: submission.reply({ resetForm: true }),
        created: { name: token.name, secret },
      } satisfies Reply
    } catch (error) {
      if (error instanceof DomainError) return fail(error.message)
      throw error
    }
  }
  if (intent === 'notifications') {
    updateNotificationSettings(account.id, {
      mentions: formData.get('mentions') === 'on',
      watching: formData.get('watching') === 'on',
    })
    return success('Notification settings saved.')
  }
  if (intent === 'revokeToken') {
    try {
      revokeAccountToken(account.id, String(formData.get('id') ?? ''))
      return success('Token revoked.')
    } catch (error) {
      if (error instanceof DomainError) return fail(error.message)
      throw error
    }
  }
  if (intent === 'unlinkSso') {
    const settings = oidcSettings()
    try {
      if (!settings) return fail(FAILED)
      unlinkIdentity(account, issuerKey(settings.issuer))
      return success(`Unlinked from ${settings.name}.`)
    } catch (error) {
      if (error instanceof DomainError) return fail(error.message)
      throw error
    }
  }
  if (intent === 'delete') {
    try {
      deleteAccount(account)
    } catch (error) {
      if (error instanceof DomainError) return fail(error.message)
      throw error
    }
    throw redirect('/', { headers: { 'Set-Cookie': await destroySession(request) } })
  }
  return fail(FAILED)
}

function SettingsCard({
  title,
  children,
  className,
}: {
  title: string
  children: ReactNode
  className?: string
}) {
  return (
    <section className={`card settings-card ${className ?? ''}`} aria-label={title}>
      <h2>{title}</h2>
      {children}
    </section>
  )
}

function IntentButton({
  intent,
  children,
  className = 'button',
}: {
  intent: string
  children: ReactNode
  className?: string
}) {
  const busy = useNavigation().state === 'submitting'
  return (
    <button type="submit" name="intent" value={intent} className={className} disabled={busy}>
      {children}
    </button>
  )
}

export default function AccountSettingsPage() {
  const { account, confirmDelete, tokens, workspaces, confirmRevoke, password, oidcOnly, sso, notifications } =
    useLoaderData<typeof loader>()
  const reply = useActionData<typeof action>()
  const [emailForm, emailFields] = useForm({
    id: 'email-change',
    lastResult: reply?.intent === 'email' ? reply.result : undefined,
    ...VALIDATE_ON_SUBMIT,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: emailChangeSchema }),
  })
  const [nameForm, nameFields] = useForm({
    id: 'name-change',
    lastResult: reply?.intent === 'name' ? reply.result : undefined,
    defaultValue: { name: account.name },
    ...VALIDATE_ON_SUBMIT,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: nameChangeSchema }),
  })
  return (
    <div className="stack" style={{ width: '100%', maxWidth: 720 }}>
      <h1>Account settings</h1>
      {!account.emailConfirmed || account.emailConfirmationPending ? (
        <SettingsCard title="Verify your email" className="notice">
          <p>
            {account.emailConfirmationPending
              ? `We sent a verification link to ${account.emailConfirmationSentTo}. Open it to confirm the address.`
              : 'Your email address is not verified yet.'}
          </p>
          <Form method="post">
            <IntentButton intent="resend">Resend verification email</IntentButton>
          </Form>
        </SettingsCard>
      ) : null}

      <SettingsCard title="Email">
        <p className="muted">Current email: {account.email}</p>
        <Form key={account.emailConfirmationSentTo} method="post" {...getFormProps(emailForm)} noValidate>
          <Field label="New email" meta={emailFields.email} type="email" autoComplete="email" />
          <ErrorList id={emailForm.errorId} errors={emailForm.errors} />
          <IntentButton intent="email" className="button primary">
            Change email
          </IntentButton>
        </Form>
      </SettingsCard>

      <SettingsCard title="Name">
        <Form method="post" {...getFormProps(nameForm)} noValidate>
          <Field label="Name" meta={nameFields.name} autoComplete="name" />
          <ErrorList id={nameForm.errorId} errors={nameForm.errors} />
          <IntentButton intent="name" className="button primary">
            Change name
          </IntentButton>
        </Form>
      </SettingsCard>

      {sso ? <SingleSignOnCard name={sso.name} email={sso.email} canUnlink={password} /> : null}

      {/* With single sign-on only, an account without a password gets none. */}
      {oidcOnly && !password ? null : (
        <SettingsCard title="Password">
          <p className="muted">
            {password
              ? 'We will send you an email with a link to choose a new password.'
              : 'You sign in with single sign-on. We will send you an email with a link to choose a password.'}
          </p>
          <Link className="button" to={`/account/reset?email=${encodeURIComponent(account.email)}`}>
            {password ? 'Change password' : 'Set a password'}
          </Link>
        </SettingsCard>
      )}

      <NotificationSettingsCard mentions={notifications.mentions} watching={notifications.watching} />

      <AccountTokensSection
        tokens={tokens}
        workspaces={workspaces}
        created={reply?.intent === 'createToken' ? reply.created : null}
        lastResult={reply?.intent === 'createToken' ? reply.result : undefined}
        confirmRevoke={confirmRevoke}
      />

      <SettingsCard title="Delete account" className="danger-zone">
        <p className="muted">
          Deleting your account also deletes every workspace where you are the only member. This cannot be
          undone.
        </p>
        {confirmDelete ? (
          <Form method="post" className="row">
            <IntentButton intent="delete" className="button danger">
              Yes, I am really sure!
            </IntentButton>
            <Link className="button" to={HERE}>
              Cancel
            </Link>
          </Form>
        ) : (
          <Link className="button danger" to="?delete=1">
            Delete account
          </Link>
        )}
      </SettingsCard>
      <p className="muted">
        <Link to="/">Back to the app</Link>
      </p>
    </div>
  )
}
