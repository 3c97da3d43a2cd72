import { Form, Link } from '@remix-run/react'

type Props = { workspaceName: string; email: string }

/** SPEC §2 header: product name, Projects, and the account menu (a <details>, so it works without JS). */
export function AppHeader({ workspaceName, email }: Props) {
  return (
    <header className="app-header">
      <Link to="/" className="brand">
        <img src="/favicon.svg" alt="" width={24} height={24} /> Storymap
      </Link>
      <nav aria-label="Main">
        <Link to={`/${workspaceName}`}>Projects</Link>
      </nav>
      <details className="account-menu">
        {/* The name starts with the visible text (the workspace), as speech input expects. */}
        <summary aria-label={`${workspaceName}: account menu`}>
          <span className="avatar-dot" aria-hidden="true">
            {email.slice(0, 1).toUpperCase()}
          </span>
          <span className="menu-workspace">{workspaceName}</span>
        </summary>
        <div className="menu" role="menu">
          <div className="menu-section">
            <span className="muted small">Workspace</span>
            <div className="row spread">
              <strong>{workspaceName}</strong>
              <Link to="/account/workspaces" role="menuitem">
                Change
              </Link>
            </div>
          </div>
          <Link to={`/${workspaceName}/settings`} role="menuitem">
            Workspace settings
          </Link>
          <Link to="/account/workspaces" role="menuitem">
            My workspaces
          </Link>
          <div className="menu-section">
            <span className="muted small">Logged in as</span>
            <span className="strong">{email}</span>
          </div>
          <Link to="/account/settings" role="menuitem">
            Account settings
          </Link>
          <Form method="post" action="/account/logout">
            <button type="submit" className="menu-button" role="menuitem">
              Log out
            </button>
          </Form>
        </div>
      </details>
    </header>
  )
}
