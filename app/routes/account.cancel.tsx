import type { MetaFunction } from '@remix-run/node'
import { Link } from '@remix-run/react'

export const meta: MetaFunction = () => [{ title: 'Something went wrong · Storymap' }]

export default function PlanCancelPage() {
  return (
    <div className="card narrow">
      <h1>Something went wrong</h1>
      <p>
        Your plan was not changed. If the problem persists,{' '}
        <Link to="/account/contact?topic=support">contact support</Link>.
      </p>
      <Link className="button primary" to="/">
        Home
      </Link>
    </div>
  )
}
