import type { Route } from './+types/account.reset._index'
import { getFormProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import type { MetaFunction } from 'react-router'
import { Form, Link, useActionData, useLoaderData, useNavigation, useSearchParams } from 'react-router'
import { ErrorList, Field, Honeypot, VALIDATE_ON_SUBMIT } from '~/ui/forms'
import { resetRequestSchema } from '~/features/accounts/account-forms'
import { requestPasswordReset } from '~/features/accounts/account-settings.server'
import { publicFormRefusal, readForm, refusedForm } from '~/http/public-form.server'
import { mailConfigured } from '~/lib/email.server'
import { ASK_THE_OPERATOR } from '~/lib/mail-texts'

export const meta: MetaFunction = () => [{ title: 'Reset password · Storymap' }]

/** Whether a reset link can be e-mailed at all: without SMTP_URL none can, and the page says so to everyone alike. */
export function loader() {
  return { mailSetUp: mailConfigured() }
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await readForm(request)
  const submission = parseWithZod(formData, { schema: resetRequestSchema })
  const refusal = publicFormRefusal(formData, context)
  if (refusal)
    return refusedForm({ result: submission.reply({ formErrors: [refusal.message] }), sentTo: null }, refusal)
  if (submission.status !== 'success') return { result: submission.reply(), sentTo: null }
  await requestPasswordReset(submission.value.email)
  // The same answer whether or not the address has an account.
  return { result: submission.reply({ resetForm: true }), sentTo: submission.value.email }
}

export default function ResetRequestPage() {
  const { mailSetUp } = useLoaderData<typeof loader>()
  const data = useActionData<typeof action>()
  const [searchParams] = useSearchParams()
  const busy = useNavigation().state === 'submitting'
  const [form, fields] = useForm({
    lastResult: data?.result,
    defaultValue: { email: searchParams.get('email') ?? '' },
    ...VALIDATE_ON_SUBMIT,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: resetRequestSchema }),
  })
  return (
    <div className="card narrow">
      <h1>Reset password</h1>
      {!mailSetUp ? (
        // The same words whether or not the address has an account: the link is only in the server's log.
        <p className="notice" role="status">
          {`${data?.sentTo ? 'No e-mail was sent' : 'No reset link can be e-mailed'}: mail is not set up on this server. ${ASK_THE_OPERATOR} Until then, they can pass you the link from the server log.`}
        </p>
      ) : data?.sentTo ? (
        <p className="notice" role="status">
          Email sent. If an account exists for {data.sentTo}, it will receive a link to choose a new password.
          The link is valid for one hour.
        </p>
      ) : (
        <p className="muted">Enter your email and we will send you a link to choose a new password.</p>
      )}
      <Form method="post" {...getFormProps(form)} noValidate>
        <Honeypot />
        <Field label="Email" meta={fields.email} type="email" autoComplete="email" autoFocus />
        <ErrorList id={form.errorId} errors={form.errors} />
        <button type="submit" className="button primary wide" disabled={busy}>
          Send reset link
        </button>
      </Form>
      <p className="muted">
        <Link to="/account/login">Back to log in</Link>
      </p>
    </div>
  )
}
