import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { Form, Link, useNavigation } from 'react-router'
import { BILLING_TEXT, billingInfoSchema } from '~/features/billing/billing'
import { formatDate } from '~/lib/dates'
import { ErrorList, Field } from '~/ui/forms'

/** The Plan and Billing information sections of /{workspace}/settings (hosted mode only). */

type PlanFacts = {
  planName: string
  statusText: string
  numberOfEditors: number
  editors: number
  expirationDate: string | null
  cancelAtPeriodEnd: boolean
  level: string
  active: boolean
}

export function PlanSection({ workspaceName, plan }: { workspaceName: string; plan: PlanFacts | null }) {
  return (
    <section className="card settings-card" aria-label="Plan">
      <h2>Plan</h2>
      {plan ? (
        <>
          <dl className="facts">
            <dt>Plan</dt>
            <dd>{plan.planName}</dd>
            <dt>Status</dt>
            <dd>{plan.statusText}</dd>
            {plan.level !== 'TRIAL' ? (
              <>
                <dt>Editors</dt>
                <dd>{`${plan.editors} of ${plan.numberOfEditors} paid`}</dd>
              </>
            ) : null}
            {plan.expirationDate ? (
              <>
                <dt>
                  {plan.cancelAtPeriodEnd || !plan.active || plan.level === 'TRIAL' ? 'Ends' : 'Renews'}
                </dt>
                <dd>{formatDate(plan.expirationDate)}</dd>
              </>
            ) : null}
          </dl>
          <Link className="button" to={`/${workspaceName}/subscription`}>
            Change plan
          </Link>
        </>
      ) : (
        <p>{BILLING_TEXT.ownerOnly}</p>
      )}
    </section>
  )
}

export function BillingSection({
  billing,
  lastResult,
}: {
  billing: { externalBillingEmail: string; euVat: string }
  lastResult?: SubmissionResult<string[]>
}) {
  const busy = useNavigation().state === 'submitting'
  const [form, fields] = useForm({
    id: 'billing',
    lastResult,
    defaultValue: billing,
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: billingInfoSchema }),
  })
  return (
    <section className="card settings-card" aria-label="Billing information">
      <h2>Billing information</h2>
      <Form method="post" {...getFormProps(form)} noValidate className="stack">
        <Field label="Billing email" meta={fields.externalBillingEmail} type="email" autoComplete="email" />
        <Field
          label="EU VAT"
          meta={fields.euVat}
          autoComplete="off"
          hint="Optional. Shown on your invoices."
        />
        <ErrorList id={form.errorId} errors={form.errors} />
        <div className="row">
          <button type="submit" name="intent" value="billingInfo" className="button primary" disabled={busy}>
            Save billing information
          </button>
        </div>
      </Form>
    </section>
  )
}
