import type { MetaFunction } from 'react-router'
import { Link } from 'react-router'

export const meta: MetaFunction = () => [{ title: 'Plan changed · Storymap' }]

export default function PlanSuccessPage() {
  return (
    <div className="card narrow">
      <h1>Plan change successful!</h1>
      <Link className="button primary" to="/">
        Home
      </Link>
    </div>
  )
}
