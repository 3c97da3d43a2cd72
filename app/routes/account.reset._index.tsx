import { getFormProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import type { ActionFunctionArgs, MetaFunction } from 'react-router'
import { Form, Link, useActionData, useNavigation, useSearchParams } from 'react-router'
import { ErrorList, Field, Honeypot, VALIDATE_ON_SUBMIT } from '~/ui/forms'
import { resetRequestSchema } from '~/features/accounts/account-forms'
import { requestPasswordReset } from '~/features/accounts/account-settings.server'
import { publicFormRefusal, readForm, refusedForm } from '~/http/public-form.server'

export const meta: MetaFunction = () => [{ title: 'Reset password · Storymap' }]

export async function action({ request, context }: ActionFunctionArgs) {
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
      {data?.sentTo ? (
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
