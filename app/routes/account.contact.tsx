import type { Route } from './+types/account.contact'
import { getFormProps, getTextareaProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import type { MetaFunction } from 'react-router'
import { Form, Link, useActionData, useLoaderData, useNavigation } from 'react-router'
import { ErrorList, Field, Honeypot, SelectField, VALIDATE_ON_SUBMIT } from '~/ui/forms'
import { CONTACT_TOPICS, contactSchema } from '~/features/accounts/account-forms'
import { DomainError } from '~/lib/errors'
import { sendContact } from '~/features/accounts/contact.server'
import { getSessionAccount } from '~/features/accounts/session.server'
import { publicFormRefusal, readForm, refusedForm } from '~/http/public-form.server'

export const meta: MetaFunction = () => [{ title: 'Contact · Storymap' }]

export async function loader({ request }: Route.LoaderArgs) {
  const account = await getSessionAccount(request)
  const topic = new URL(request.url).searchParams.get('topic')
  return { sender: account?.email ?? '', topic: CONTACT_TOPICS.find((t) => t === topic) ?? 'general' }
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await readForm(request)
  const submission = parseWithZod(formData, { schema: contactSchema })
  const refusal = publicFormRefusal(formData, context)
  if (refusal)
    return refusedForm({ result: submission.reply({ formErrors: [refusal.message] }), sent: false }, refusal)
  if (submission.status !== 'success') return { result: submission.reply(), sent: false }
  try {
    await sendContact(submission.value)
  } catch (error) {
    if (!(error instanceof DomainError)) throw error
    const field = error.field ?? 'sender'
    return { result: submission.reply({ fieldErrors: { [field]: [error.message] } }), sent: false }
  }
  return { result: submission.reply({ resetForm: true }), sent: true }
}

export default function ContactPage() {
  const defaults = useLoaderData<typeof loader>()
  const data = useActionData<typeof action>()
  const busy = useNavigation().state === 'submitting'
  const [form, fields] = useForm({
    lastResult: data?.result,
    defaultValue: { ...defaults, body: '' },
    ...VALIDATE_ON_SUBMIT,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: contactSchema }),
  })
  return (
    <div className="card narrow">
      <h1>Contact us</h1>
      {data?.sent ? (
        <p className="notice" role="status">
          Thank you! Your message has been sent.
        </p>
      ) : null}
      <Form method="post" {...getFormProps(form)} noValidate>
        <Honeypot />
        <SelectField label="Topic" meta={fields.topic}>
          <option value="general">General</option>
          <option value="sales">Sales</option>
          <option value="support">Support</option>
        </SelectField>
        <div className="field">
          <label htmlFor={fields.body.id}>Message</label>
          <textarea {...getTextareaProps(fields.body)} />
          <ErrorList id={fields.body.errorId} errors={fields.body.errors} />
        </div>
        <Field label="Your email" meta={fields.sender} type="email" autoComplete="email" />
        <ErrorList id={form.errorId} errors={form.errors} />
        <button type="submit" className="button primary wide" disabled={busy}>
          Send
        </button>
      </Form>
      <p className="muted">
        <Link to="/">Home</Link>
      </p>
    </div>
  )
}
