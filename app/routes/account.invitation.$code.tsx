import type { Route } from './+types/account.invitation.$code'
import type { MetaFunction } from 'react-router'
import { Form, Link, useActionData, useLoaderData, useNavigation } from 'react-router'
import { DomainError } from '~/lib/errors'
import { normalizeEmail } from '~/lib/email-address'
import { invitationForText } from '~/features/workspaces/membership'
import { LEVEL_NAMES } from '~/features/map/permissions'
import { acceptInvitation, describeInvitation } from '~/features/workspaces/invite.server'
import { getSessionAccount } from '~/features/accounts/session.server'
import { requireAccount } from '~/http/auth.server'
import { redirectWithMessage } from '~/http/toast.server'

export const meta: MetaFunction = () => [{ title: 'Invitation · Storymap' }]

export async function loader({ request, params }: Route.LoaderArgs) {
  const code = params.code ?? ''
  const account = await getSessionAccount(request)
  const email = account?.email ?? null
  try {
    return { code, invitation: describeInvitation(code), email }
  } catch (error) {
    if (!(error instanceof DomainError)) throw error
    return { code, invitation: null, email }
  }
}

/** Accepting needs a signed-in account; signed out, the log-in page brings the user back here. */
export async function action({ request, params }: Route.ActionArgs) {
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
  // Signed in with another address: this account cannot take the invitation (the server refuses too).
  const otherAccount = Boolean(invitation && email && normalizeEmail(email) !== invitation.email)
  return (
    <div className="card narrow">
      <h1>Invitation to join workspace</h1>
      {invitation ? (
        <>
          <p>
            {invitation.invitedByName} invited you to join the workspace{' '}
            <strong>{invitation.workspaceName}</strong> as {LEVEL_NAMES[invitation.level]}.
          </p>
          {otherAccount ? null : (
            <p className="muted small">{`The invitation is for ${invitation.email}.`}</p>
          )}
          {result?.error ? (
            <div className="errors" role="alert">
              <p>{result.error}</p>
            </div>
          ) : null}
          {otherAccount ? (
            <p className="notice">
              {`${invitationForText(invitation.email)} You are signed in as ${email}.`}{' '}
              <Link to="/account/logout">Log out</Link>, then open the link again.
            </p>
          ) : (
            <>
              {email ? <p className="muted small">Signed in as {email}.</p> : null}
              <Form method="post">
                <button type="submit" className="button primary wide" disabled={busy}>
                  Accept invite
                </button>
              </Form>
            </>
          )}
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
