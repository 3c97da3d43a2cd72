import { useFetcher, useFetchers, useLocation } from 'react-router'
import { THEME_LABELS, THEMES, parseTheme, type Theme } from '~/features/accounts/theme'

const ACTION = '/account/theme'

/** The theme to show: one being chosen right now (optimistic), else the one the server rendered. */
export function useTheme(rendered: Theme | undefined): Theme {
  const pending = useFetchers().find((f) => f.formAction === ACTION && f.formData)
  return pending ? parseTheme(pending.formData!.get('theme')) : (rendered ?? 'system')
}

/** `Theme: System / Light / Dark` in the account menu (CONTRACT §12); works without JavaScript. */
export function ThemeSwitcher({ current }: { current: Theme }) {
  const fetcher = useFetcher()
  const location = useLocation()
  const shown = useTheme(current)
  return (
    <fetcher.Form method="post" action={ACTION} className="menu-section theme-switcher">
      <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
      <span className="muted small" id="theme-label">
        Theme
      </span>
      <div className="segmented" role="group" aria-labelledby="theme-label">
        {THEMES.map((theme) => (
          <button
            key={theme}
            type="submit"
            name="theme"
            value={theme}
            className="segment"
            role="menuitemradio"
            aria-checked={shown === theme}
          >
            {THEME_LABELS[theme]}
          </button>
        ))}
      </div>
    </fetcher.Form>
  )
}
