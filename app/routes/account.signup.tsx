import type { Route } from './+types/account.signup'
import { getFormProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, redirect, type MetaFunction } from 'react-router'
import { Form, Link, useActionData, useLoaderData, useNavigation } from 'react-router'
import { ErrorList, Field, Honeypot, VALIDATE_ON_SUBMIT } from '~/ui/forms'
import { SingleSignOn } from '~/features/accounts/ui/single-sign-on'
import { DomainError } from '~/lib/errors'
import { PASSWORD_LOGIN_DISABLED } from '~/features/accounts/oidc'
import { LEVEL_NAMES } from '~/features/map/permissions'
import { signupSchema } from '~/lib/validation'
import { signup } from '~/features/accounts/account.server'
import { describeInvitation } from '~/features/workspaces/invite.server'
import { sendVerificationMail } from '~/features/accounts/account-settings.server'
import { createSession, getSessionAccount } from '~/features/accounts/session.server'
import { getEnv } from '~/lib/env.server'
import { oidcPageSettings } from '~/features/accounts/oidc.server'
import { publicFormRefusal, readForm, refusedForm } from '~/http/public-form.server'
import { redirectWithMessage } from '~/http/toast.server'

export const meta: MetaFunction = () => [{ title: 'Sign up · Storymap' }]

export async function loader({ request }: Route.LoaderArgs) {
  if (await getSessionAccount(request)) throw redirect('/')
  const invitation = new URL(request.url).searchParams.get('invitation') ?? ''
  return {
    ...oidcPageSettings(),
    inviteOnly: getEnv().SIGNUP === 'invite-only',
    invitation,
    invited: invitation ? invitationOrRefusal(invitation) : null,
  }
}

/** What the form says about the invitation it came with, or why there is none. */
function invitationOrRefusal(code: string) {
  try {
    const { workspaceName, level, email } = describeInvitation(code)
    return { ok: true as const, workspaceName, level, email }
  } catch (error) {
    if (!(error instanceof DomainError)) throw error
    return { ok: false as const, message: error.message }
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await readForm(request)
  const submission = parseWithZod(formData, { schema: signupSchema })
  const refusal = publicFormRefusal(formData, context)
  if (refusal)
    return refusedForm(submission.reply({ formErrors: [refusal.message], hideFields: ['password'] }), refusal)
  if (submission.status !== 'success') return submission.reply({ hideFields: ['password'] })
  try {
    const { account, workspaceName, joined } = await signup(submission.value)
    await sendVerificationMail(account) // a failed mail is logged; the new account stands
    const session: [string, string] = ['Set-Cookie', await createSession(account.id, request)]
    // Through an invitation: straight onto the team's projects.
    if (joined)
      throw await redirectWithMessage(
        `/${workspaceName}`,
        { type: 'success', message: 'Invitation accepted.' },
        { headers: [session] },
      )
    throw redirect('/account/signupsuccess', { headers: [session] })
  } catch (error) {
    if (!(error instanceof DomainError)) throw error
    const reply = submission.reply(
      error.field ? { fieldErrors: { [error.field]: [error.message] } } : { formErrors: [error.message] },
    )
    return error.code === PASSWORD_LOGIN_DISABLED ? data(reply, { status: 403 }) : reply
  }
}

export default function SignupPage() {
  const { inviteOnly, invitation, invited, ssoName, oidcOnly } = useLoaderData<typeof loader>()
  const lastResult = useActionData<typeof action>()
  const busy = useNavigation().state === 'submitting'
  const [form, fields] = useForm({
    lastResult,
    defaultValue: invited?.ok ? { email: invited.email } : undefined,
    ...VALIDATE_ON_SUBMIT,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: signupSchema }),
  })
  if (invited && !invited.ok) {
    return (
      <div className="card narrow">
        <h1>Sign up</h1>
        <p className="errors" role="alert">
          {invited.message}
        </p>
        <Link className="button" to="/">
          Home
        </Link>
      </div>
    )
  }
  return (
    <div className="card narrow">
      <h1>Sign up</h1>
      {inviteOnly && !invitation ? (
        <p className="notice">Sign-up is by invitation only. Open the link in your invitation e-mail.</p>
      ) : null}
      {invited ? (
        <p>
          Create your account to join the workspace <strong>{invited.workspaceName}</strong> as{' '}
          {LEVEL_NAMES[invited.level]}.
        </p>
      ) : null}
      {ssoName ? <SingleSignOn name={ssoName} passwords={!oidcOnly} /> : null}
      {oidcOnly ? null : (
        <Form method="post" {...getFormProps(form)} noValidate>
          {invitation ? <input type="hidden" name="invitation" value={invitation} /> : null}
          <Honeypot />
          {/* Through an invitation the account joins the inviting workspace only. */}
          {invited ? null : (
            <Field
              label="Workspace name"
              meta={fields.workspaceName}
              autoComplete="off"
              autoFocus
              hint="Lowercase letters and digits; it becomes your address, e.g. /acme."
            />
          )}
          <Field label="Name" meta={fields.name} autoComplete="name" autoFocus={Boolean(invited)} />
          <Field
            label="Email"
            meta={fields.email}
            type="email"
            autoComplete="email"
            hint={invited ? 'The address the invitation was sent to.' : undefined}
          />
          <Field label="Password" meta={fields.password} type="password" autoComplete="new-password" />
          <ErrorList id={form.errorId} errors={form.errors} />
          <button type="submit" className="button primary wide" disabled={busy}>
            Sign up
          </button>
        </Form>
      )}
      <p className="muted">
        Already have an account? <Link to="/account/login">Log in</Link>
      </p>
    </div>
  )
}
