import { Form, useNavigation } from 'react-router'
import { oidcTexts } from '~/features/accounts/oidc'

/**
 * The `Sign in with {OIDC_NAME}` button (CONTRACT §11): a plain link, so it works without
 * JavaScript; the server sends the browser on to the provider. `passwords`: the password form
 * follows, after an "or".
 */
export function SingleSignOn({
  name,
  redirectTo,
  passwords,
}: {
  name: string
  redirectTo?: string | null
  passwords: boolean
}) {
  const href = redirectTo
    ? `/account/oidc/start?redirectTo=${encodeURIComponent(redirectTo)}`
    : '/account/oidc/start'
  return (
    <>
      {/* A document navigation, not a client-side one: the answer is a redirect to another site. */}
      <a className={passwords ? 'button wide' : 'button primary wide'} href={href}>
        {oidcTexts(name).button}
      </a>
      {passwords ? (
        <p className="sso-or muted" aria-hidden="true">
          or
        </p>
      ) : null}
    </>
  )
}

/**
 * Account settings: the identity linked at the provider (CONTRACT §11). An account with a
 * password may unlink it; without one, unlinking would leave no way in.
 */
export function SingleSignOnCard({
  name,
  email,
  canUnlink,
}: {
  name: string
  email: string | null
  canUnlink: boolean
}) {
  const busy = useNavigation().state === 'submitting'
  return (
    <section className="card settings-card" aria-label="Single sign-on">
      <h2>Single sign-on</h2>
      {email ? (
        <>
          <p>{oidcTexts(name).signedInAs(email)}</p>
          {canUnlink ? (
            <Form method="post">
              <button type="submit" name="intent" value="unlinkSso" className="button" disabled={busy}>
                Unlink
              </button>
            </Form>
          ) : (
            <p className="muted">To unlink it, set a password first.</p>
          )}
        </>
      ) : (
        <p className="muted">{`Not linked. ${oidcTexts(name).button} using this account's email to link it.`}</p>
      )}
    </section>
  )
}
