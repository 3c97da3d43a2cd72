import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { Form, Link } from 'react-router'
import { ErrorList, Field, VALIDATE_ON_SUBMIT } from '~/ui/forms'
import { IntentButton, SettingsCard } from '~/ui/settings'
import { emailChangeSchema, nameChangeSchema } from '../account-forms'
import { ASK_THE_OPERATOR, MAIL_NOT_SET_UP } from '~/lib/mail-texts'

/** The account's own cards on `/account/settings` (SPEC §5); each form posts its intent there. */

type Account = {
  email: string
  name: string
  emailConfirmed: boolean
  emailConfirmationPending: boolean
  emailConfirmationSentTo: string | null
}
type Reply = { intent: string; result: SubmissionResult<string[]> } | undefined

export function VerifyEmailCard({ account, mailSetUp }: { account: Account; mailSetUp: boolean }) {
  if (account.emailConfirmed && !account.emailConfirmationPending) return null
  return (
    <SettingsCard title="Verify your email" className="notice">
      <p>
        {!mailSetUp
          ? `Your email address is not verified yet. ${MAIL_NOT_SET_UP} ${ASK_THE_OPERATOR}`
          : account.emailConfirmationPending
            ? `We sent a verification link to ${account.emailConfirmationSentTo}. Open it to confirm the address.`
            : 'Your email address is not verified yet.'}
      </p>
      <Form method="post">
        <IntentButton intent="resend">Resend verification email</IntentButton>
      </Form>
    </SettingsCard>
  )
}

export function EmailCard({ account, reply }: { account: Account; reply: Reply }) {
  const [form, fields] = useForm({
    id: 'email-change',
    lastResult: reply?.intent === 'email' ? reply.result : undefined,
    ...VALIDATE_ON_SUBMIT,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: emailChangeSchema }),
  })
  return (
    <SettingsCard title="Email">
      <p className="muted">Current email: {account.email}</p>
      <Form key={account.emailConfirmationSentTo} method="post" {...getFormProps(form)} noValidate>
        <Field label="New email" meta={fields.email} type="email" autoComplete="email" />
        <ErrorList id={form.errorId} errors={form.errors} />
        <IntentButton intent="email" className="button primary">
          Change email
        </IntentButton>
      </Form>
    </SettingsCard>
  )
}

export function NameCard({ account, reply }: { account: Account; reply: Reply }) {
  const [form, fields] = useForm({
    id: 'name-change',
    lastResult: reply?.intent === 'name' ? reply.result : undefined,
    defaultValue: { name: account.name },
    ...VALIDATE_ON_SUBMIT,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: nameChangeSchema }),
  })
  return (
    <SettingsCard title="Name">
      <Form method="post" {...getFormProps(form)} noValidate>
        <Field label="Name" meta={fields.name} autoComplete="name" />
        <ErrorList id={form.errorId} errors={form.errors} />
        <IntentButton intent="name" className="button primary">
          Change name
        </IntentButton>
      </Form>
    </SettingsCard>
  )
}

export function PasswordCard({ email, password }: { email: string; password: boolean }) {
  return (
    <SettingsCard title="Password">
      <p className="muted">
        {password
          ? 'We will send you an email with a link to choose a new password.'
          : 'You sign in with single sign-on. We will send you an email with a link to choose a password.'}
      </p>
      <Link className="button" to={`/account/reset?email=${encodeURIComponent(email)}`}>
        {password ? 'Change password' : 'Set a password'}
      </Link>
    </SettingsCard>
  )
}

export function DeleteAccountCard({ confirm, here }: { confirm: boolean; here: string }) {
  return (
    <SettingsCard title="Delete account" className="danger-zone">
      <p className="muted">
        Deleting your account also deletes every workspace where you are the only member. This cannot be
        undone.
      </p>
      {confirm ? (
        <Form method="post" className="row">
          <IntentButton intent="delete" className="button danger">
            Yes, I am really sure!
          </IntentButton>
          <Link className="button" to={here}>
            Cancel
          </Link>
        </Form>
      ) : (
        <Link className="button danger" to="?delete=1">
          Delete account
        </Link>
      )}
    </SettingsCard>
  )
}
