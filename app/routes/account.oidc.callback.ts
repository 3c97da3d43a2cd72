import type { Route } from './+types/account.oidc.callback'
import { redirect } from 'react-router'
import { DomainError } from '~/lib/errors'
import { oidcTexts } from '~/features/accounts/oidc'
import { signInWithProvider, type ProviderSignIn } from '~/features/accounts/oidc-identity.server'
import { createSession } from '~/features/accounts/session.server'
import { logger } from '~/lib/logger.server'
import {
  clearFlowCookie,
  failedSignInHeaders,
  finishSignIn,
  oidcSettings,
  SignInFailed,
} from '~/features/accounts/oidc.server'
import { redirectWithMessage } from '~/http/toast.server'

/**
 * GET /account/oidc/callback (CONTRACT §11): where the provider sends the browser back. Signs in,
 * links or creates the account by §11's rules; every failure goes back to the log-in page with
 * its text, and creates nothing.
 */
export async function loader({ request }: Route.LoaderArgs) {
  const settings = oidcSettings()
  if (!settings) throw new Response('Not Found', { status: 404 })
  const texts = oidcTexts(settings.name)
  const fail = async (message: string) =>
    new Response(null, { status: 302, headers: await failedSignInHeaders(message) })

  let outcome: ProviderSignIn
  let redirectTo: string
  try {
    const result = await finishSignIn(request)
    redirectTo = result.redirectTo
    outcome = signInWithProvider(result.issuer, result.claims)
  } catch (error) {
    if (!(error instanceof SignInFailed) && !(error instanceof DomainError)) throw error
    logger.warn({ reason: error.message }, 'single sign-on failed')
    return fail(texts.failed)
  }
  if (!outcome.ok) {
    logger.info({ refusal: outcome.refusal }, 'single sign-on refused')
    if (outcome.refusal === 'unverified') return fail(texts.notVerified(outcome.email ?? ''))
    if (outcome.refusal === 'noAccount') return fail(texts.noAccount(outcome.email ?? ''))
    return fail(texts.failed)
  }
  const headers: [string, string][] = [
    ['Set-Cookie', await clearFlowCookie()],
    ['Set-Cookie', await createSession(outcome.accountId, request)],
    ['Cache-Control', 'no-store'],
  ]
  const landing = outcome.landing ?? redirectTo
  if (outcome.message)
    return redirectWithMessage(landing, { type: 'success', message: outcome.message }, { headers })
  return redirect(landing, { headers })
}
