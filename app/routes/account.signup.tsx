import { getFormProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import {
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { ErrorList, Field, Honeypot } from '~/components/forms'
import { DomainError } from '~/domain/errors'
import { signupSchema } from '~/domain/validation'
import { signup } from '~/models/account.server'
import { sendVerificationMail } from '~/models/account-settings.server'
import { createSession, getSessionAccount } from '~/models/session.server'
import { getEnv } from '~/utils/env.server'
import { publicFormRefusal, readForm, refusedForm } from '~/utils/public-form.server'

export const meta: MetaFunction = () => [{ title: 'Sign up · Storymap' }]

export async function loader({ request }: LoaderFunctionArgs) {
  if (await getSessionAccount(request)) throw redirect('/')
  const invitation = new URL(request.url).searchParams.get('invitation') ?? ''
  return { inviteOnly: getEnv().SIGNUP === 'invite-only', invitation }
}

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await readForm(request)
  const submission = parseWithZod(formData, { schema: signupSchema })
  const refusal = publicFormRefusal(formData, context)
  if (refusal)
    return refusedForm(submission.reply({ formErrors: [refusal.message], hideFields: ['password'] }), refusal)
  if (submission.status !== 'success') return submission.reply({ hideFields: ['password'] })
  try {
    const account = await signup(submission.value)
    await sendVerificationMail(account) // a failed mail is logged; the new account stands
    throw redirect('/account/signupsuccess', {
      headers: { 'Set-Cookie': await createSession(account.id, request) },
    })
  } catch (error) {
    if (!(error instanceof DomainError)) throw error
    return submission.reply(
      error.field ? { fieldErrors: { [error.field]: [error.message] } } : { formErrors: [error.message] },
    )
  }
}

export default function SignupPage() {
  const { inviteOnly, invitation } = useLoaderData<typeof loader>()
  const lastResult = useActionData<typeof action>()
  const busy = useNavigation().state === 'submitting'
  const [form, fields] = useForm({
    lastResult,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: signupSchema }),
  })
  return (
    <div className="card narrow">
      <h1>Sign up</h1>
      {inviteOnly && !invitation ? (
        <p className="notice">Sign-up is by invitation only. Open the link in your invitation e-mail.</p>
      ) : null}
      <Form method="post" {...getFormProps(form)} noValidate>
        {invitation ? <input type="hidden" name="invitation" value={invitation} /> : null}
        <Honeypot />
        <Field
          label="Workspace name"
          meta={fields.workspaceName}
          autoComplete="off"
          autoFocus
          hint="Lowercase letters and digits; it becomes your address, e.g. /acme."
        />
        <Field label="Name" meta={fields.name} autoComplete="name" />
        <Field label="Email" meta={fields.email} type="email" autoComplete="email" />
        <Field label="Password" meta={fields.password} type="password" autoComplete="new-password" />
        <ErrorList id={form.errorId} errors={form.errors} />
        <button type="submit" className="button primary wide" disabled={busy}>
          Sign up
        </button>
      </Form>
      <p className="muted">
        Already have an account? <Link to="/account/login">Log in</Link>
      </p>
    </div>
  )
}
