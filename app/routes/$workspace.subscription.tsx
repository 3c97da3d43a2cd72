import type { Route } from './+types/$workspace.subscription'
import { getFormProps, getInputProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { redirect, type MetaFunction } from 'react-router'
import { Form, Link, useActionData, useLoaderData, useNavigation } from 'react-router'
import { useState } from 'react'
import { ErrorList } from '~/ui/forms'
import { BILLING_TEXT, checkoutSchema, planChangeSchema, totalPrice } from '~/features/billing/billing'
import { formatDate } from '~/lib/dates'
import { DomainError } from '~/lib/errors'
import { can } from '~/features/map/permissions'
import { changePlan, planOverview, startCheckout } from '~/features/billing/billing.server'
import { requireWorkspace } from '~/http/auth.server'
import { getEnv } from '~/lib/env.server'
import { redirectWithMessage } from '~/http/toast.server'

export const meta: MetaFunction = () => [{ title: 'Plan · Storymap' }]

async function requireHostedWorkspace(request: Request, workspaceName: string | undefined) {
  const ctx = await requireWorkspace(request, workspaceName)
  if (getEnv().APP_MODE !== 'hosted') throw new Response('Not found', { status: 404 })
  return ctx
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const ctx = await requireHostedWorkspace(request, params.workspace)
  if (!can(ctx, 'manageBilling')) return { owner: false as const, workspaceName: ctx.workspace.name }
  return { owner: true as const, workspaceName: ctx.workspace.name, plan: planOverview(ctx) }
}

/** Checkout goes to Stripe; a change goes to /account/success; a provider failure to /account/cancel. */
export async function action({ request, params }: Route.ActionArgs) {
  const ctx = await requireHostedWorkspace(request, params.workspace)
  const plan = planOverview(ctx)
  const formData = await request.formData()
  const checkout = plan.needsCheckout
  const submission = checkout
    ? parseWithZod(formData, { schema: checkoutSchema(plan.editors) })
    : parseWithZod(formData, { schema: planChangeSchema(plan.editors) })
  if (submission.status !== 'success') return submission.reply()
  try {
    if (checkout) {
      const session = await startCheckout(
        ctx,
        submission.value as { plan: 'basic' | 'pro'; quantity: number },
      )
      return redirect(session.url)
    }
    await changePlan(ctx, submission.value)
    return redirect('/account/success')
  } catch (error) {
    if (!(error instanceof DomainError)) throw error
    if (error.kind === 'forbidden' || error.kind === 'conflict')
      return submission.reply({ formErrors: [error.message] })
    return redirectWithMessage('/account/cancel', { type: 'fail', message: error.message })
  }
}

export default function SubscriptionPage() {
  const data = useLoaderData<typeof loader>()
  return (
    <main className="page stack">
      <h1>Plan</h1>
      {data.owner ? (
        <PlanForm plan={data.plan} />
      ) : (
        <div className="card">
          <p>{BILLING_TEXT.ownerOnly}</p>
        </div>
      )}
      <p>
        <Link to={`/${data.workspaceName}/settings`}>Back to workspace settings</Link>
      </p>
    </main>
  )
}

type Plan = Extract<ReturnType<typeof useLoaderData<typeof loader>>, { owner: true }>['plan']

function PlanForm({ plan }: { plan: Plan }) {
  const lastResult = useActionData<typeof action>()
  const busy = useNavigation().state !== 'idle'
  const checkout = plan.needsCheckout
  const initialPlan = plan.level === 'PRO' && !checkout ? 'pro' : 'basic'
  const initialEditors = checkout ? Math.max(plan.editors, 1) : plan.numberOfEditors
  const [form, fields] = useForm({
    id: 'plan',
    lastResult,
    defaultValue: { plan: initialPlan, quantity: String(initialEditors) },
    shouldValidate: 'onBlur',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) =>
      parseWithZod(formData, {
        schema: checkout ? checkoutSchema(plan.editors) : planChangeSchema(plan.editors),
      }),
  })
  const [choice, setChoice] = useState<string>(initialPlan)
  const [editors, setEditors] = useState(String(initialEditors))
  const price = choice === 'pro' ? plan.prices.pro : plan.prices.basic
  const count = Number(editors)
  const cancelling = choice === 'cancel'
  return (
    <section className="card stack" aria-label="Plan">
      <dl className="facts">
        <dt>Current plan</dt>
        <dd>{plan.planName}</dd>
        <dt>Status</dt>
        <dd>{plan.statusText}</dd>
        {plan.expirationDate ? (
          <>
            <dt>{plan.cancelAtPeriodEnd || !plan.active || plan.level === 'TRIAL' ? 'Ends' : 'Renews'}</dt>
            <dd>{formatDate(plan.expirationDate)}</dd>
          </>
        ) : null}
        <dt>Editors in the workspace</dt>
        <dd>{plan.editors}</dd>
      </dl>
      {plan.cancelAtPeriodEnd && plan.expirationDate ? (
        <p className="banner info">{`Your plan is canceled and ends on ${formatDate(plan.expirationDate)}. Choose Team plan to keep it.`}</p>
      ) : null}
      <h2>{checkout ? 'Sign up for a paid plan' : 'Change plan'}</h2>
      <Form method="post" {...getFormProps(form)} noValidate className="stack">
        <fieldset className="plan-options">
          <legend>Plan</legend>
          <label className="check">
            <input
              {...getInputProps(fields.plan, { type: 'radio', value: 'basic' })}
              onChange={(e) => setChoice(e.currentTarget.value)}
            />
            {`Team plan: $${plan.prices.basic} per editor per month`}
          </label>
          {!checkout && plan.level === 'PRO' ? (
            <label className="check">
              <input
                {...getInputProps(fields.plan, { type: 'radio', value: 'pro' })}
                onChange={(e) => setChoice(e.currentTarget.value)}
              />
              {`Business plan: $${plan.prices.pro} per editor per month`}
            </label>
          ) : null}
          {!checkout && !plan.cancelAtPeriodEnd ? (
            <label className="check">
              <input
                {...getInputProps(fields.plan, { type: 'radio', value: 'cancel' })}
                onChange={(e) => setChoice(e.currentTarget.value)}
              />
              Cancel plan
            </label>
          ) : null}
          <ErrorList id={fields.plan.errorId} errors={fields.plan.errors} />
        </fieldset>
        {cancelling ? (
          <p className="muted">
            {plan.expirationDate
              ? `The plan stays active until ${formatDate(plan.expirationDate)}; after that the workspace is view only.`
              : 'The plan ends at the end of the paid period; after that the workspace is view only.'}
          </p>
        ) : (
          <div className="field">
            <label htmlFor={fields.quantity.id}>Number of editors</label>
            <input
              {...getInputProps(fields.quantity, { type: 'number' })}
              min={1}
              step={1}
              className="narrow-input"
              onInput={(e) => setEditors(e.currentTarget.value)}
            />
            <ErrorList id={fields.quantity.errorId} errors={fields.quantity.errors} />
            <p className="strong" aria-live="polite">
              {Number.isInteger(count) && count > 0
                ? `Total: $${totalPrice(price, count)} per month`
                : 'Total: choose the number of editors'}
            </p>
          </div>
        )}
        <ErrorList id={form.errorId} errors={form.errors} />
        <div className="row">
          <button type="submit" className="button primary" disabled={busy}>
            {checkout ? 'Go to checkout' : cancelling ? 'Cancel plan' : 'Change plan'}
          </button>
        </div>
      </Form>
    </section>
  )
}
