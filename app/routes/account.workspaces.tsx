import type { Route } from './+types/account.workspaces'
import { getFormProps, useForm } from '@conform-to/react'
import { parseWithZod } from '@conform-to/zod/v4'
import { redirect, type MetaFunction } from 'react-router'
import {
  Form,
  Link,
  useActionData,
  useLoaderData,
  useNavigate,
  useNavigation,
  useSearchParams,
} from 'react-router'
import { ErrorList, Field, VALIDATE_ON_SUBMIT } from '~/ui/forms'
import { Modal } from '~/ui/modal'
import { formatDate } from '~/lib/dates'
import { DomainError } from '~/lib/errors'
import { CREATE_WORKSPACE_ERROR_TEXT, createWorkspaceSchema } from '~/lib/validation'
import { createWorkspace, listAccountWorkspaces } from '~/features/workspaces/workspace.server'
import { requireAccount } from '~/http/auth.server'

export const meta: MetaFunction = () => [{ title: 'My workspaces · Storymap' }]

export async function loader({ request }: Route.LoaderArgs) {
  const account = await requireAccount(request)
  const workspaces = listAccountWorkspaces(account.id).map((r) => ({
    id: r.workspace.id,
    name: r.workspace.name,
    createdAt: r.workspace.createdAt,
  }))
  return { workspaces, email: account.email }
}

export async function action({ request }: Route.ActionArgs) {
  const account = await requireAccount(request)
  const submission = parseWithZod(await request.formData(), { schema: createWorkspaceSchema })
  if (submission.status !== 'success') return submission.reply()
  try {
    const workspace = createWorkspace(account.id, submission.value.name)
    throw redirect(`/${workspace.name}`)
  } catch (error) {
    if (!(error instanceof DomainError)) throw error
    const text = CREATE_WORKSPACE_ERROR_TEXT[error.code] ?? error.message
    return submission.reply({ fieldErrors: { name: [text] } })
  }
}

export default function WorkspacesPage() {
  const { workspaces, email } = useLoaderData<typeof loader>()
  const [searchParams] = useSearchParams()
  const creating = searchParams.get('new') === '1'
  return (
    <div className="card">
      <div className="row spread">
        <h1>My workspaces</h1>
        <Link className="button primary" to="?new=1">
          New workspace
        </Link>
      </div>
      {workspaces.length === 0 ? (
        <p className="empty">No workspaces</p>
      ) : (
        <ul className="list">
          {workspaces.map((w) => (
            <li key={w.id} className="list-row">
              <Link to={`/${w.name}`} className="strong">
                {w.name}
              </Link>
              <span className="muted">{`Created ${formatDate(w.createdAt)}`}</span>
            </li>
          ))}
        </ul>
      )}
      <p className="muted small">
        Logged in as {email} · <Link to="/account/settings">Account settings</Link> ·{' '}
        <Form method="post" action="/account/logout" className="inline">
          <button type="submit" className="link-button">
            Log out
          </button>
        </Form>
      </p>
      {creating ? <CreateWorkspaceDialog /> : null}
    </div>
  )
}

function CreateWorkspaceDialog() {
  const lastResult = useActionData<typeof action>()
  const navigate = useNavigate()
  const busy = useNavigation().state === 'submitting'
  const [form, fields] = useForm({
    lastResult,
    ...VALIDATE_ON_SUBMIT,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: createWorkspaceSchema }),
  })
  return (
    <Modal title="Create workspace" onClose={() => navigate('/account/workspaces')}>
      <Form method="post" {...getFormProps(form)} noValidate>
        <Field label="Name" meta={fields.name} autoComplete="off" autoFocus />
        <ErrorList id={form.errorId} errors={form.errors} />
        <div className="row end">
          <Link className="button" to="/account/workspaces">
            Cancel
          </Link>
          <button type="submit" className="button primary" disabled={busy}>
            Create
          </button>
        </div>
      </Form>
    </Modal>
  )
}
