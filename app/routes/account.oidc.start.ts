import type { Route } from './+types/account.oidc.start'
import { redirect } from 'react-router'
import { oidcTexts } from '~/features/accounts/oidc'
import { safeRedirect } from '~/http/auth.server'
import { logger } from '~/lib/logger.server'
import { failedSignInHeaders, oidcSettings, startSignIn } from '~/features/accounts/oidc.server'

/**
 * GET /account/oidc/start (CONTRACT §11): the `Sign in with …` button's link. Sends the browser
 * to the provider; when the provider cannot be reached, back to the log-in page with the failure text.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const settings = oidcSettings()
  if (!settings) throw new Response('Not Found', { status: 404 })
  const redirectTo = safeRedirect(new URL(request.url).searchParams.get('redirectTo'))
  try {
    const { url, setCookie } = await startSignIn(redirectTo)
    return redirect(url, { headers: { 'Set-Cookie': setCookie, 'Cache-Control': 'no-store' } })
  } catch (error) {
    logger.warn({ reason: (error as Error).message }, 'single sign-on could not start')
    return new Response(null, {
      status: 302,
      headers: await failedSignInHeaders(oidcTexts(settings.name).failed),
    })
  }
}
