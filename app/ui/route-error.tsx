import { isRouteErrorResponse, useRouteError } from 'react-router'
import { isNetworkFailure } from '~/http/offline-loader'
import { NotFound } from './not-found'

/**
 * What a page shows when its route (or one under it) failed: `Page not found` for a 404, else
 * why, with a way home. Every layout route exports it as its ErrorBoundary, so one failing part
 * never blanks the page.
 */
export function RouteError() {
  const error = useRouteError()
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />
  const unreachable = isNetworkFailure(error)
  return (
    <main className="page-center">
      <div className="card narrow">
        <h1>{unreachable ? 'The server cannot be reached' : 'Something went wrong'}</h1>
        <p>
          {unreachable
            ? 'Check your connection, then try again.'
            : 'Please try again. If it keeps happening, contact support.'}
        </p>
        <a className="button" href="/">
          Home
        </a>
      </div>
    </main>
  )
}
