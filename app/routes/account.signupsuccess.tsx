import type { MetaFunction } from 'react-router'
import { Link, useLoaderData } from 'react-router'
import { mailConfigured } from '~/lib/email.server'
import { ASK_THE_OPERATOR } from '~/lib/mail-texts'

export const meta: MetaFunction = () => [{ title: 'Welcome · Storymap' }]

/** Whether a verification e-mail went out: without SMTP_URL none did, and the page says so. */
export function loader() {
  return { mailSetUp: mailConfigured() }
}

export default function SignupSuccessPage() {
  const { mailSetUp } = useLoaderData<typeof loader>()
  return (
    <div className="card narrow">
      <h1>Welcome to Storymap!</h1>
      {mailSetUp ? (
        <p>Your account and workspace are ready. We have sent you an e-mail to verify your address.</p>
      ) : (
        <>
          <p>Your account and workspace are ready.</p>
          <p className="notice" role="status">
            {`No e-mail was sent to verify your address: mail is not set up on this server. ${ASK_THE_OPERATOR}`}
          </p>
        </>
      )}
      <Link className="button primary" to="/">
        Get started
      </Link>
    </div>
  )
}
