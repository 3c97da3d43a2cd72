import type { Route } from './+types/account.theme'
import { redirect } from 'react-router'
import { parseTheme } from '~/features/accounts/theme'
import { changeTheme } from '~/features/accounts/account-settings.server'
import { getSessionAccount } from '~/features/accounts/session.server'
import { safeRedirect } from '~/http/auth.server'
import { themeCookieHeader } from '~/features/accounts/theme.server'

/** POST /account/theme {theme, redirectTo}: keeps the choice on the account and in a cookie, then goes back. */
export async function action({ request }: Route.ActionArgs) {
  const form = await request.formData()
  const theme = parseTheme(form.get('theme'))
  const account = await getSessionAccount(request)
  if (account) changeTheme(account.id, theme)
  throw redirect(safeRedirect(form.get('redirectTo')), {
    headers: { 'Set-Cookie': await themeCookieHeader(theme) },
  })
}

export const loader = () => redirect('/')
