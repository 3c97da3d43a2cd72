import { createCookie } from '@remix-run/node'
import { parseTheme, type Theme } from '~/domain/theme'

/** The theme for pages rendered before (or without) a session: a year-long cookie. */
const themeCookie = createCookie('storymap_theme', { path: '/', sameSite: 'lax', httpOnly: true, maxAge: 365 * 86_400 })

export async function themeOf(request: Request): Promise<Theme> {
  return parseTheme(await themeCookie.parse(request.headers.get('Cookie')))
}

export function themeCookieHeader(theme: Theme): Promise<string> {
  return themeCookie.serialize(theme)
}
