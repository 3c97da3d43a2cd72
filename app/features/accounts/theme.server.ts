import { createCookie } from 'react-router'
import { parseTheme, type Theme } from './theme'
import { getSessionAccount } from './session.server'

/** The theme for pages rendered before (or without) a session: a year-long cookie. */
const themeCookie = createCookie('storymap_theme', {
  path: '/',
  sameSite: 'lax',
  httpOnly: true,
  maxAge: 365 * 86_400,
})

export async function themeOf(request: Request): Promise<Theme> {
  return parseTheme(await themeCookie.parse(request.headers.get('Cookie')))
}

export function themeCookieHeader(theme: Theme): Promise<string> {
  return themeCookie.serialize(theme)
}

/**
 * The theme a page is drawn in (CONTRACT §12): a signed-in page uses the account's choice, however
 * its session began (log-in form, API, single sign-on, an invitation); a signed-out one the
 * cookie's. `setCookie` brings the cookie in line with the account, so the log-in page after a
 * log-out keeps the theme.
 */
export async function pageTheme(request: Request): Promise<{ theme: Theme; setCookie: string | null }> {
  const [account, cookieTheme] = await Promise.all([getSessionAccount(request), themeOf(request)])
  if (!account) return { theme: cookieTheme, setCookie: null }
  const theme = parseTheme(account.theme)
  return { theme, setCookie: theme === cookieTheme ? null : await themeCookieHeader(theme) }
}
