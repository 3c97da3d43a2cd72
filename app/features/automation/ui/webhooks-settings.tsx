import { getFormProps, getInputProps, useForm, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { Form, Link, useNavigation } from 'react-router'
import { formatDateTime } from '~/lib/dates'
import { createWebhookSchema, WEBHOOK_EVENTS, type WebhookEvent } from '~/features/automation/webhooks'
import { CopyButton } from '~/ui/copy-button'
import { ErrorList, Field, SelectField } from '~/ui/forms'

/** Workspace settings → Webhooks (CONTRACT §10): endpoints, their secret once, a test, the log. */

export type WebhookView = {
  id: string
  url: string
  projectId: string | null
  events: WebhookEvent[]
  createdAt: string
  disabledAt: string | null
  deliveries: {
    id: string
    event: string
    at: string
    status: number | null
    error: string | null
    attempt: number
    state: 'pending' | 'delivered' | 'failed'
  }[]
}

const EVENT_LABELS: Record<WebhookEvent, string> = {
  change: 'Card changes',
  comment: 'Comments',
  project: 'Project changes',
}
const STATE_LABELS = { pending: 'Pending', delivered: 'Delivered', failed: 'Failed' } as const

function DeliveryLog({ webhook }: { webhook: WebhookView }) {
  if (webhook.deliveries.length === 0) return <p className="muted">No deliveries yet.</p>
  return (
    <table className="table" aria-label={`Delivery log of ${webhook.url}`}>
      <thead>
        <tr>
          <th scope="col">Event</th>
          <th scope="col">Status</th>
          <th scope="col">Time</th>
          <th scope="col">Response code</th>
          <th scope="col">Attempts</th>
        </tr>
      </thead>
      <tbody>
        {webhook.deliveries.map((d) => (
          <tr key={d.id}>
            <td>{d.event}</td>
            <td>{STATE_LABELS[d.state]}</td>
            <td>{formatDateTime(d.at)}</td>
            <td title={d.error ?? undefined}>{d.status ?? (d.error ? 'No answer' : '–')}</td>
            <td>{d.attempt}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

function Endpoint({
  webhook,
  projects,
  confirmDelete,
}: {
  webhook: WebhookView
  projects: { id: string; title: string }[]
  confirmDelete: boolean
}) {
  const busy = useNavigation().state === 'submitting'
  const project = webhook.projectId
    ? (projects.find((p) => p.id === webhook.projectId)?.title ?? 'A deleted project')
    : 'All projects'
  return (
    <li className="stack webhook">
      <div className="row">
        <code>{webhook.url}</code>
        {webhook.disabledAt ? <strong>Disabled {formatDateTime(webhook.disabledAt)}</strong> : null}
      </div>
      <p className="muted">
        {project} · {webhook.events.map((e) => EVENT_LABELS[e]).join(', ')}
      </p>
      <div className="row">
        <Form method="post" aria-label={`Send test to ${webhook.url}`} preventScrollReset>
          <input type="hidden" name="id" value={webhook.id} />
          <button type="submit" name="intent" value="testWebhook" className="button small" disabled={busy}>
            Send test
          </button>
        </Form>
        {confirmDelete ? (
          <Form method="post" className="row" aria-label={`Delete ${webhook.url}`}>
            <span>Deliveries to it stop at once.</span>
            <input type="hidden" name="id" value={webhook.id} />
            <button
              type="submit"
              name="intent"
              value="deleteWebhook"
              className="button small danger"
              disabled={busy}
              autoFocus
            >
              Delete endpoint
            </button>
            <Link className="button small" to="?" preventScrollReset>
              Cancel
            </Link>
          </Form>
        ) : (
          <Link
            className="button small"
            to={`?deleteWebhook=${webhook.id}`}
            preventScrollReset
            aria-label={`Delete ${webhook.url}`}
          >
            Delete
          </Link>
        )}
      </div>
      <details open={webhook.deliveries.length > 0}>
        <summary>Delivery log</summary>
        <DeliveryLog webhook={webhook} />
      </details>
    </li>
  )
}

export function WebhooksSection({
  webhooks,
  projects,
  created,
  lastResult,
  confirmDelete,
}: {
  webhooks: WebhookView[]
  projects: { id: string; title: string }[]
  created: { url: string; secret: string } | null
  lastResult?: SubmissionResult<string[]>
  confirmDelete: string | null
}) {
  const busy = useNavigation().state === 'submitting'
  const [form, fields] = useForm({
    id: 'create-webhook',
    lastResult,
    defaultValue: { projectId: '', events: [...WEBHOOK_EVENTS] },
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: createWebhookSchema }),
  })
  return (
    <section className="card settings-card" aria-label="Webhooks">
      <h2>Webhooks</h2>
      <p className="muted">
        Storymap posts every change to these addresses, signed with the endpoint’s secret (Standard Webhooks).
      </p>
      {created ? (
        <div className="banner success token-created" role="status">
          <p>
            <strong>Endpoint added.</strong> Copy its signing secret now: it will not be shown again.
          </p>
          <div className="row">
            <input
              className="token-secret"
              readOnly
              value={created.secret}
              aria-label="Signing secret"
              onFocus={(e) => e.currentTarget.select()}
            />
            <CopyButton text={created.secret} label="Copy secret" />
          </div>
        </div>
      ) : null}
      <Form method="post" {...getFormProps(form)} noValidate className="stack webhook-form">
        <Field label="Endpoint URL" meta={fields.url} />
        <SelectField label="Project" meta={fields.projectId}>
          <option value="">All projects</option>
          {projects.map((p) => (
            <option key={p.id} value={p.id}>
              {p.title}
            </option>
          ))}
        </SelectField>
        <fieldset className="field">
          <legend>Events</legend>
          {WEBHOOK_EVENTS.map((event) => (
            <label key={event} className="row">
              <input
                {...getInputProps(fields.events, { type: 'checkbox', value: event })}
                key={`${form.key}-${event}`}
              />
              {EVENT_LABELS[event]}
            </label>
          ))}
          <ErrorList id={fields.events.errorId} errors={fields.events.errors} />
        </fieldset>
        <div>
          <button
            type="submit"
            name="intent"
            value="createWebhook"
            className="button primary"
            disabled={busy}
          >
            Add endpoint
          </button>
        </div>
        <ErrorList id={form.errorId} errors={form.errors} />
      </Form>
      {webhooks.length === 0 ? (
        <p className="muted">No endpoints yet.</p>
      ) : (
        <ul className="stack plain">
          {webhooks.map((w) => (
            <Endpoint key={w.id} webhook={w} projects={projects} confirmDelete={confirmDelete === w.id} />
          ))}
        </ul>
      )}
    </section>
  )
}
