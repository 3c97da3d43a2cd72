import type { MetaFunction } from 'react-router'
import { Link } from 'react-router'

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
