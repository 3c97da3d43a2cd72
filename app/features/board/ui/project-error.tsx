import { isRouteErrorResponse, Link, useParams, useRouteError } from 'react-router'
import { isNetworkFailure } from '~/http/offline-loader'

/** The project route's error page: 'Project not found' for unknown or foreign projects. */
export function ProjectErrorBoundary() {
  const error = useRouteError()
  const { workspace } = useParams()
  const notFound = isRouteErrorResponse(error) && error.status === 404
  const unreachable = isNetworkFailure(error)
  return (
    <main className="page">
      <h1>
        {notFound
          ? 'Project not found'
          : unreachable
            ? 'The server cannot be reached'
            : 'Something went wrong'}
      </h1>
      <p className="muted">
        {notFound
          ? 'It may have been deleted, or the link is wrong.'
          : unreachable
            ? 'Check your connection, then reload the page.'
            : 'Please reload the page.'}
      </p>
      <Link to={`/${workspace}`} className="button">
        Projects
      </Link>
    </main>
  )
}
