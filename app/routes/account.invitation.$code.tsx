import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node'
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { DomainError } from '~/domain/errors'
import { acceptInvitation, getInvitation } from '~/models/invite.server'
import { getSessionAccount } from '~/models/session.server'
import { requireAccount } from '~/utils/auth.server'
import { redirectWithMessage } from '~/utils/toast.server'

export const meta: MetaFunction = () => [{ title: 'Invitation · Storymap' }]

export async function loader({ request, params }: LoaderFunctionArgs) {
  const code = params.code ?? ''
  const account = await getSessionAccount(request)
  try {
    return { code, invitation: getInvitation(code), email: account?.email ?? null }
  } catch (error) {
    if (!(error instanceof DomainError)) throw error
    return { code, invitation: null, email: account?.email ?? null }
  }
}

/** Accepting needs a signed-in account; signed out, the log-in page brings the user back here. */
export async function action({ request, params }: ActionFunctionArgs) {
  const account = await requireAccount(request)
  try {
    const joined = acceptInvitation(account, params.code ?? '')
    return redirectWithMessage(`/${joined.workspaceName}`, {
      type: 'success',
      message: 'Invitation accepted.',
    })
  } catch (error) {
    if (!(error instanceof DomainError)) throw error
    return { error: error.message }
  }
}

export default function InvitationPage() {
  const { code, invitation, email } = useLoaderData<typeof loader>()
  const result = useActionData<typeof action>()
  const busy = useNavigation().state === 'submitting'
  const back = `/account/invitation/${code}`
  return (
    <div className="card narrow">
      <h1>Invitation to join workspace</h1>
      {invitation ? (
        <>
          <p>
            You are invited to join the workspace <strong>{invitation.workspaceName}</strong> as{' '}
            <span className="badge">{invitation.level}</span>.
          </p>
          {result?.error ? (
            <div className="errors" role="alert">
              <p>{result.error}</p>
            </div>
          ) : null}
          {email ? <p className="muted small">Signed in as {email}.</p> : null}
          <Form method="post">
            <button type="submit" className="button primary wide" disabled={busy}>
              Accept invite
            </button>
          </Form>
          {email ? null : (
            <p className="muted">
              Have an account?{' '}
              <Link to={`/account/login?redirectTo=${encodeURIComponent(back)}`}>Log in</Link> first. New
              here?{' '}
              <Link to={`/account/signup?invitation=${encodeURIComponent(code)}`}>Create an account</Link>
            </p>
          )}
        </>
      ) : (
        <>
          <p className="errors" role="alert">
            Invitation not found.
          </p>
          <Link className="button" to="/">
            Home
          </Link>
        </>
      )}
    </div>
  )
}
