import type { Route } from './+types/account.login'
import { getFormProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { data, redirect, type MetaFunction } from 'react-router'
import { Form, Link, useActionData, useLoaderData, useNavigation, useSearchParams } from 'react-router'
import { ErrorList, Field, Honeypot, VALIDATE_ON_SUBMIT } from '~/ui/forms'
import { SingleSignOn } from '~/features/accounts/ui/single-sign-on'
import { oidcTexts } from '~/features/accounts/oidc'
import { loginSchema } from '~/lib/validation'
import { verifyLogin } from '~/features/accounts/account.server'
import { createSession, getSessionAccount } from '~/features/accounts/session.server'
import { safeRedirect } from '~/http/auth.server'
import { oidcPageSettings, takeSignInNotice } from '~/features/accounts/oidc.server'
import { publicFormRefusal, readForm, refusedForm } from '~/http/public-form.server'

export const meta: MetaFunction = () => [{ title: 'Log in · Storymap' }]

export async function loader({ request }: Route.LoaderArgs) {
  if (await getSessionAccount(request)) throw redirect('/')
  // A failed sign-in with the provider says why here, once (CONTRACT §11).
  const { notice, setCookie } = await takeSignInNotice(request)
  return data(
    { ...oidcPageSettings(), notice },
    setCookie ? { headers: { 'Set-Cookie': setCookie, 'Cache-Control': 'no-store' } } : undefined,
  )
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await readForm(request)
  const submission = parseWithZod(formData, { schema: loginSchema })
  const refusal = publicFormRefusal(formData, context)
  if (refusal)
    return refusedForm(submission.reply({ formErrors: [refusal.message], hideFields: ['password'] }), refusal)
  if (submission.status !== 'success') return submission.reply({ hideFields: ['password'] })
  const { ssoName, oidcOnly } = oidcPageSettings()
  if (oidcOnly && ssoName)
    return data(
      submission.reply({ formErrors: [oidcTexts(ssoName).passwordLoginDisabled], hideFields: ['password'] }),
      {
        status: 403,
      },
    )
  const account = await verifyLogin(submission.value.email, submission.value.password)
  if (!account)
    return submission.reply({ formErrors: ['Email or password is incorrect.'], hideFields: ['password'] })
  // The page it lands on shows the account's theme (the root loader, CONTRACT §12).
  const headers = new Headers({ 'Set-Cookie': await createSession(account.id, request) })
  throw redirect(safeRedirect(formData.get('redirectTo')), { headers })
}

export default function LoginPage() {
  const { ssoName, oidcOnly, notice } = useLoaderData<typeof loader>()
  const lastResult = useActionData<typeof action>()
  const [searchParams] = useSearchParams()
  const busy = useNavigation().state === 'submitting'
  const [form, fields] = useForm({
    lastResult,
    ...VALIDATE_ON_SUBMIT,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: loginSchema }),
  })
  return (
    <div className="card narrow">
      <h1>Log in</h1>
      {notice ? (
        <div className="errors" role="alert">
          <p>{notice}</p>
        </div>
      ) : null}
      {ssoName ? (
        <SingleSignOn name={ssoName} redirectTo={searchParams.get('redirectTo')} passwords={!oidcOnly} />
      ) : null}
      {oidcOnly ? null : (
        <>
          <Form method="post" {...getFormProps(form)} noValidate>
            <input type="hidden" name="redirectTo" value={searchParams.get('redirectTo') ?? ''} />
            <Honeypot />
            <Field label="Email" meta={fields.email} type="email" autoComplete="email" autoFocus />
            <Field label="Password" meta={fields.password} type="password" autoComplete="current-password" />
            <ErrorList id={form.errorId} errors={form.errors} />
            <button type="submit" className="button primary wide" disabled={busy}>
              Log in
            </button>
          </Form>
          <p className="muted">
            <Link to="/account/reset">Forgot your password?</Link>
          </p>
        </>
      )}
      <p className="muted">
        No account yet? <Link to="/account/signup">Sign up</Link>
      </p>
    </div>
  )
}
