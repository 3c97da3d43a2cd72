import { Form, Link, useLocation, useRouteLoaderData } from 'react-router'
import { useEffect, useRef, useState } from 'react'
import { parseTheme } from '~/features/accounts/theme'
import { ThemeSwitcher } from '~/features/accounts/ui/theme-switcher'

type Props = { workspaceName: string; email: string }

/**
 * A <details> menu that closes like a menu: on Escape (focus back on its summary), on a press
 * outside it, when focus goes elsewhere (Tab away, a dialog opening takes it) and after navigating.
 */
function useMenuDetails() {
  const ref = useRef<HTMLDetailsElement>(null)
  const [open, setOpen] = useState(false)
  const { pathname } = useLocation()

  // After navigating; on the first run, take over a menu opened before hydration.
  const shownPath = useRef(pathname)
  useEffect(() => {
    if (!ref.current) return
    if (shownPath.current === pathname) setOpen(ref.current.open)
    else ref.current.open = false
    shownPath.current = pathname
  }, [pathname])

  useEffect(() => {
    const details = ref.current
    if (!open || !details) return
    const outside = (target: EventTarget | null) => target instanceof Node && !details.contains(target)
    // Capture phase: Escape closes the menu alone, not also a side panel beneath it.
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return
      event.preventDefault()
      event.stopPropagation()
      details.open = false
      details.querySelector('summary')?.focus()
    }
    const onPointer = (event: PointerEvent) => {
      if (outside(event.target)) details.open = false
    }
    const onFocus = (event: FocusEvent) => {
      if (outside(event.target)) details.open = false
    }
    window.addEventListener('keydown', onKey, true)
    document.addEventListener('pointerdown', onPointer)
    document.addEventListener('focusin', onFocus)
    return () => {
      window.removeEventListener('keydown', onKey, true)
      document.removeEventListener('pointerdown', onPointer)
      document.removeEventListener('focusin', onFocus)
    }
  }, [open])

  return { ref, onToggle: () => setOpen(ref.current?.open ?? false) }
}

/** SPEC §2 header: product name, Projects, and the account menu (a <details>, so it works without JS). */
export function AppHeader({ workspaceName, email }: Props) {
  const theme = parseTheme(useRouteLoaderData<{ theme?: string }>('root')?.theme)
  const menu = useMenuDetails()
  return (
    <header className="app-header">
      <Link to="/" className="brand">
        <img src="/favicon.svg" alt="" width={24} height={24} /> Storymap
      </Link>
      <nav aria-label="Main">
        <Link to={`/${workspaceName}`}>Projects</Link>
      </nav>
      <details className="account-menu" ref={menu.ref} onToggle={menu.onToggle}>
        {/* Named by its content, `{workspace} account menu`: it starts with the visible workspace
            name, as speech input expects; the avatar letter is decoration. */}
        <summary>
          <span className="avatar-dot" aria-hidden="true">
            {email.slice(0, 1).toUpperCase()}
          </span>
          <span className="menu-workspace">{workspaceName}</span>
          <span className="sr-only"> account menu</span>
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
          <ThemeSwitcher current={theme} />
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
