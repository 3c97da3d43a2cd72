import type { MetaFunction } from 'react-router'
import { Link } from 'react-router'

export const meta: MetaFunction = () => [{ title: 'Welcome · Storymap' }]

export default function SignupSuccessPage() {
  return (
    <div className="card narrow">
      <h1>Welcome to Storymap!</h1>
      <p>Your account and workspace are ready. We have sent you an e-mail to verify your address.</p>
      <Link className="button primary" to="/">
        Get started
      </Link>
    </div>
  )
}
