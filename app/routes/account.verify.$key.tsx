import type { Route } from './+types/account.verify.$key'
import type { MetaFunction } from 'react-router'
import { Link, useLoaderData } from 'react-router'
import { DomainError } from '~/lib/errors'
import { verifyEmail } from '~/features/accounts/account-settings.server'

export const meta: MetaFunction = () => [{ title: 'Verify email · Storymap' }]

/** Opening the mailed link verifies the address (SPEC §2). */
export function loader({ params }: Route.LoaderArgs) {
  try {
    verifyEmail(params.key ?? '')
    return { verified: true }
  } catch (error) {
    if (!(error instanceof DomainError)) throw error
    return { verified: false }
  }
}

export default function VerifyEmailPage() {
  const { verified } = useLoaderData<typeof loader>()
  return (
    <div className="card narrow">
      <h1>{verified ? 'Email address verified!' : 'Something went wrong'}</h1>
      {verified ? null : (
        <p>The link is invalid or has expired. You can ask for a new one in your account settings.</p>
      )}
      <Link className="button primary" to="/">
        Home
      </Link>
    </div>
  )
}
