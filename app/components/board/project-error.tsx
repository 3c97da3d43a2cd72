import { isRouteErrorResponse, Link, useParams, useRouteError } from '@remix-run/react'

/** The project route's error page: 'Project not found' for unknown or foreign projects. */
export function ProjectErrorBoundary() {
  const error = useRouteError()
  const { workspace } = useParams()
  const notFound = isRouteErrorResponse(error) && error.status === 404
  return (
    <main className="page">
      <h1>{notFound ? 'Project not found' : 'Something went wrong'}</h1>
      <p className="muted">
        {notFound ? 'It may have been deleted, or the link is wrong.' : 'Please reload the page.'}
      </p>
      <Link to={`/${workspace}`} className="button">
        Projects
      </Link>
    </main>
  )
}
