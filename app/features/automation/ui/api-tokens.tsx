import { getFormProps, useForm, type SubmissionResult } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { Form, Link, useNavigation } from 'react-router'
import type { ReactNode } from 'react'
import { createTokenSchema } from '~/features/automation/api-tokens'
import { formatDate, formatDateTime } from '~/lib/dates'
import { CopyButton } from '~/ui/copy-button'
import { ErrorList, Field, InlineSubmit, SelectField } from '~/ui/forms'

/** Personal API tokens in account settings, and a workspace's tokens in its settings (CONTRACT §10). */

export type TokenRow = {
  id: string
  name: string
  scope: 'read' | 'write'
  prefix: string
  createdAt: string
  expiresAt: string | null
  lastUsedAt: string | null
  workspaceName?: string
  member?: { name: string; email: string }
}

const EXPIRY_CHOICES = [
  ['30', '30 days'],
  ['90', '90 days'],
  ['365', '1 year'],
  ['7', '7 days'],
  ['', 'No expiry'],
] as const

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="card settings-card" aria-label={title}>
      <h2>{title}</h2>
      {children}
    </section>
  )
}

const expired = (row: TokenRow) => row.expiresAt !== null && Date.parse(row.expiresAt) <= Date.now()

/** A token's list, each with Revoke, which asks once more (`?revoke={id}`) before it acts. */
function TokenTable({
  tokens,
  confirmRevoke,
  showMember,
}: {
  tokens: TokenRow[]
  confirmRevoke: string | null
  showMember: boolean
}) {
  const busy = useNavigation().state === 'submitting'
  if (tokens.length === 0) return <p className="muted">No tokens yet.</p>
  return (
    <table className="table">
      <thead>
        <tr>
          <th scope="col">Name</th>
          {showMember ? <th scope="col">Member</th> : <th scope="col">Workspace</th>}
          <th scope="col">Scope</th>
          <th scope="col">Last used</th>
          <th scope="col">Expires</th>
          <th scope="col">
            <span className="sr-only">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {tokens.map((token) => (
          <tr key={token.id}>
            <td>
              {token.name} <code className="muted">{token.prefix}…</code>
            </td>
            <td>{showMember ? token.member?.name : token.workspaceName}</td>
            <td>{token.scope === 'read' ? 'Read' : 'Read and write'}</td>
            <td>{token.lastUsedAt ? formatDateTime(token.lastUsedAt) : 'Never'}</td>
            <td>
              {token.expiresAt
                ? `${expired(token) ? 'Expired ' : ''}${formatDate(token.expiresAt)}`
                : 'Never'}
            </td>
            <td>
              {confirmRevoke === token.id ? (
                <Form method="post" className="row" aria-label={`Revoke ${token.name}`}>
                  <span>Scripts using it stop working at once.</span>
                  <input type="hidden" name="id" value={token.id} />
                  <button
                    type="submit"
                    name="intent"
                    value="revokeToken"
                    className="button small danger"
                    disabled={busy}
                    autoFocus
                  >
                    Revoke token
                  </button>
                  <Link className="button small" to="?" preventScrollReset>
                    Cancel
                  </Link>
                </Form>
              ) : (
                <Link
                  className="button small"
                  to={`?revoke=${token.id}`}
                  preventScrollReset
                  aria-label={`Revoke ${token.name}`}
                >
                  Revoke
                </Link>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

type Created = { name: string; secret: string }

export function AccountTokensSection({
  tokens,
  workspaces,
  created,
  lastResult,
  confirmRevoke,
}: {
  tokens: TokenRow[]
  workspaces: { id: string; name: string }[]
  created: Created | null
  lastResult?: SubmissionResult<string[]>
  confirmRevoke: string | null
}) {
  const busy = useNavigation().state === 'submitting'
  const [form, fields] = useForm({
    id: 'create-token',
    lastResult,
    defaultValue: { workspaceId: workspaces[0]?.id, scope: 'read', expiresInDays: '30' },
    shouldValidate: 'onSubmit',
    shouldRevalidate: 'onInput',
    onValidate: ({ formData }) => parseWithZod(formData, { schema: createTokenSchema }),
  })
  return (
    <Section title="API tokens">
      <p className="muted">
        Scripts and other tools use a token to call the Storymap API as you, in one workspace, never with more
        rights than you have there.
      </p>
      {created ? (
        <div className="banner success token-created" role="status">
          <p>
            <strong>Token “{created.name}” created.</strong> Copy it now: it will not be shown again.
          </p>
          <div className="row">
            <input
              className="token-secret"
              readOnly
              value={created.secret}
              aria-label="New token"
              onFocus={(e) => e.currentTarget.select()}
            />
            <CopyButton text={created.secret} label="Copy token" />
          </div>
        </div>
      ) : null}
      <Form method="post" {...getFormProps(form)} noValidate className="row token-form">
        <Field label="Token name" meta={fields.name} />
        <SelectField label="Workspace" meta={fields.workspaceId}>
          {workspaces.map((w) => (
            <option key={w.id} value={w.id}>
              {w.name}
            </option>
          ))}
        </SelectField>
        <SelectField label="Scope" meta={fields.scope}>
          <option value="read">Read</option>
          <option value="write">Read and write</option>
        </SelectField>
        <SelectField label="Expires after" meta={fields.expiresInDays}>
          {EXPIRY_CHOICES.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </SelectField>
        <InlineSubmit intent="createToken" busy={busy}>
          Create token
        </InlineSubmit>
        <ErrorList id={form.errorId} errors={form.errors} />
      </Form>
      <TokenTable tokens={tokens} confirmRevoke={confirmRevoke} showMember={false} />
    </Section>
  )
}

/** Every member's tokens of the workspace, for its owners and admins to revoke. */
export function WorkspaceTokensSection({
  tokens,
  confirmRevoke,
}: {
  tokens: TokenRow[]
  confirmRevoke: string | null
}) {
  return (
    <Section title="API tokens">
      <p className="muted">Tokens members made for this workspace. Revoking one stops it at once.</p>
      <TokenTable tokens={tokens} confirmRevoke={confirmRevoke} showMember />
    </Section>
  )
}
