import type { Route } from './+types/account.reset.$key'
import { getFormProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import type { MetaFunction } from 'react-router'
import { Form, Link, useActionData, useLoaderData, useNavigation } from 'react-router'
import { ErrorList, Field, VALIDATE_ON_SUBMIT } from '~/ui/forms'
import { setPasswordFormSchema } from '~/features/accounts/account-forms'
import { DomainError } from '~/lib/errors'
import { hasLiveAccountKey } from '~/features/accounts/account-key.server'
import { setPasswordWithKey } from '~/features/accounts/account-settings.server'
import { redirectWithMessage } from '~/http/toast.server'

export const meta: MetaFunction = () => [{ title: 'Choose a new password · Storymap' }]

export function loader({ params }: Route.LoaderArgs) {
  return { keyValid: hasLiveAccountKey('reset', params.key ?? '') }
}

export async function action({ request, params }: Route.ActionArgs) {
  const submission = parseWithZod(await request.formData(), { schema: setPasswordFormSchema })
  if (submission.status !== 'success') return submission.reply({ hideFields: ['password'] })
  try {
    await setPasswordWithKey(params.key ?? '', submission.value.password)
  } catch (error) {
    if (!(error instanceof DomainError)) throw error
    return submission.reply({ formErrors: [error.message], hideFields: ['password'] })
  }
  return redirectWithMessage('/account/login', {
    type: 'success',
    message: 'Password changed. Please log in.',
  })
}

export default function SetPasswordPage() {
  const { keyValid } = useLoaderData<typeof loader>()
  const lastResult = useActionData<typeof action>()
  const busy = useNavigation().state === 'submitting'
  const [form, fields] = useForm({
    lastResult,
    ...VALIDATE_ON_SUBMIT,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: setPasswordFormSchema }),
  })
  return (
    <div className="card narrow">
      <h1>Choose a new password</h1>
      {keyValid ? null : (
        <p className="notice">
          This link is invalid or has expired. <Link to="/account/reset">Ask for a new one.</Link>
        </p>
      )}
      <Form method="post" {...getFormProps(form)} noValidate>
        <Field
          label="New password"
          meta={fields.password}
          type="password"
          autoComplete="new-password"
          autoFocus
        />
        <ErrorList id={form.errorId} errors={form.errors} />
        <button type="submit" className="button primary wide" disabled={busy}>
          Set password
        </button>
      </Form>
    </div>
  )
}
