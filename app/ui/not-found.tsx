import { Link } from 'react-router'

export function NotFound() {
  return (
    <main className="page-center">
      <div className="card narrow">
        <h1>Page not found</h1>
        <p>The page you are looking for does not exist.</p>
        <Link className="button" to="/">
          Home
        </Link>
      </div>
    </main>
  )
}
