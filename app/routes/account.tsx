import { Link, Outlet } from 'react-router'

/** The public account pages share a centred card layout. */
export default function AccountLayout() {
  return (
    <div className="account-shell">
      <header className="account-header">
        <Link to="/" className="brand">
          <img src="/favicon.svg" alt="" width={24} height={24} /> Storymap
        </Link>
      </header>
      <main className="page-center">
        <Outlet />
      </main>
    </div>
  )
}

export { RouteError as ErrorBoundary } from '~/ui/route-error'
