import { createCookie } from 'react-router'
import type * as client from 'openid-client'
import { readClaims, type ProviderClaims } from './oidc'
import { getEnv, type ServerEnv } from '~/lib/env.server'
import { logger } from '~/lib/logger.server'
import { singleton } from '~/lib/singleton.server'

/**
 * Single sign-on with OpenID Connect (CONTRACT §11), the provider's side: discovery (lazy,
 * cached, retried), the authorization request (code flow, PKCE S256, state, nonce) and the
 * callback's checks, all through openid-client. The flow's secrets live in a signed, HttpOnly,
 * ten-minute cookie of the browser that started it, and each flow can finish only once.
 */

export const CALLBACK_PATH = '/account/oidc/callback'
const FLOW_LIFETIME_MS = 10 * 60 * 1000
/** After a failed discovery, a new attempt waits this long (the button answers at once meanwhile). */
const RETRY_AFTER_MS = 5_000
const DISCOVERY_TIMEOUT_SECONDS = 10

type OidcSettings = { issuer: string; clientId: string; clientSecret: string; name: string; scopes: string }

export function oidcSettings(env: ServerEnv = getEnv()): OidcSettings | null {
  if (!env.OIDC_ISSUER || !env.OIDC_CLIENT_ID || !env.OIDC_CLIENT_SECRET) return null
  return {
    issuer: env.OIDC_ISSUER,
    clientId: env.OIDC_CLIENT_ID,
    clientSecret: env.OIDC_CLIENT_SECRET,
    name: env.OIDC_NAME,
    scopes: env.OIDC_SCOPES,
  }
}

/**
 * The issuer as identities are stored: its normalized URL. Discovery succeeds only when the
 * provider's `issuer` normalizes to the configured one, so this needs no round trip.
 */
export function issuerKey(issuer: string): string {
  return new URL(issuer).href
}

/** What the pages need to know: the button's provider name, and whether passwords are off. */
export function oidcPageSettings() {
  const env = getEnv()
  const settings = oidcSettings(env)
  return { ssoName: settings ? settings.name : null, oidcOnly: env.OIDC_ONLY }
}

/** openid-client is loaded when single sign-on is first used, not by a server without it (ADR 23). */
const loadOpenIdClient = () => import('openid-client')

type DiscoveryState = {
  config?: client.Configuration
  pending?: Promise<client.Configuration>
  failedAt?: number
  failure?: string
}

const discoveryState = () => singleton<DiscoveryState>('oidc-discovery', () => ({}))

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : ''
  const code = 'code' in error && typeof error.code === 'string' ? ` (${error.code})` : ''
  // The provider's own error (e.g. access_denied), from an error response or an error redirect.
  const oauth = 'error' in error && typeof error.error === 'string' ? `: ${error.error}` : ''
  return `${error.message}${code}${oauth}${cause}`
}

async function discover(settings: OidcSettings): Promise<client.Configuration> {
  const oidc = await loadOpenIdClient()
  const insecure = settings.issuer.startsWith('http://')
  const execute = insecure ? [oidc.allowInsecureRequests] : []
  const found = await oidc.discovery(
    new URL(settings.issuer),
    settings.clientId,
    settings.clientSecret,
    undefined,
    {
      execute,
      timeout: DISCOVERY_TIMEOUT_SECONDS,
    },
  )
  // The client authenticates as the provider prefers: HTTP Basic unless it supports only POST
  // (with the list absent, Basic is the default of OpenID Connect Discovery).
  const metadata = found.serverMetadata()
  const methods = metadata.token_endpoint_auth_methods_supported
  const basic = !methods || methods.includes('client_secret_basic')
  const auth = basic
    ? oidc.ClientSecretBasic(settings.clientSecret)
    : oidc.ClientSecretPost(settings.clientSecret)
  const config = new oidc.Configuration(metadata, settings.clientId, settings.clientSecret, auth)
  for (const run of execute) run(config)
  // openid-client trusts an ID token from the token endpoint on TLS alone unless told otherwise:
  // check its JWS signature against the provider's published keys (ADR 21). `alg: none` and
  // HMAC are refused, and so is a key the provider's JWKS does not hold.
  oidc.enableNonRepudiationChecks(config)
  config.timeout = DISCOVERY_TIMEOUT_SECONDS
  return config
}

/**
 * The provider's configuration: discovered on first use and kept. A failure is logged with its
 * reason and tried again on a later use (not sooner than RETRY_AFTER_MS), so an unreachable
 * provider never stops the server.
 */
export function providerConfiguration(now = Date.now()): Promise<client.Configuration> {
  const settings = oidcSettings()
  if (!settings) return Promise.reject(new Error('single sign-on is not configured'))
  const state = discoveryState()
  if (state.config) return Promise.resolve(state.config)
  if (state.pending) return state.pending
  if (state.failedAt !== undefined && now - state.failedAt < RETRY_AFTER_MS)
    return Promise.reject(new Error(state.failure))
  state.pending = discover(settings).then(
    (config) => {
      state.config = config
      state.pending = undefined
      logger.info({ issuer: settings.issuer }, 'single sign-on: provider discovered')
      return config
    },
    (error: unknown) => {
      state.pending = undefined
      state.failedAt = Date.now()
      state.failure = `discovery at ${settings.issuer} failed: ${describe(error)}`
      logger.warn({ issuer: settings.issuer, reason: describe(error) }, `single sign-on: ${state.failure}`)
      throw new Error(state.failure)
    },
  )
  return state.pending
}

/** At start: discover the provider in the background; a failure is only logged. */
export function warmUpSingleSignOn() {
  if (oidcSettings()) providerConfiguration().catch(() => {})
}

type Flow = { state: string; nonce: string; verifier: string; redirectTo: string; startedAt: number }

function flowCookie() {
  return singleton('oidc-flow-cookie', () => {
    const env = getEnv()
    return createCookie('storymap_oidc_flow', {
      httpOnly: true,
      // Lax: the provider's redirect back is a top-level GET from another site, which Lax lets through.
      sameSite: 'lax',
      secure: env.BASE_URL.startsWith('https://'),
      path: '/account/oidc',
      secrets: [env.SESSION_SECRET],
      maxAge: FLOW_LIFETIME_MS / 1000,
    })
  })
}

export function clearFlowCookie(): Promise<string> {
  return flowCookie().serialize('', { maxAge: 0, expires: new Date(0) })
}

/** The provider's authorization URL and the Set-Cookie header binding this flow to the browser. */
export async function startSignIn(
  redirectTo: string,
  now = Date.now(),
): Promise<{ url: string; setCookie: string }> {
  const settings = oidcSettings()!
  const config = await providerConfiguration(now)
  const oidc = await loadOpenIdClient()
  const flow: Flow = {
    state: oidc.randomState(),
    nonce: oidc.randomNonce(),
    verifier: oidc.randomPKCECodeVerifier(),
    redirectTo,
    startedAt: now,
  }
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: `${getEnv().BASE_URL}${CALLBACK_PATH}`,
    scope: settings.scopes,
    response_type: 'code',
    state: flow.state,
    nonce: flow.nonce,
    code_challenge: await oidc.calculatePKCECodeChallenge(flow.verifier),
    code_challenge_method: 'S256',
  })
  return { url: url.href, setCookie: await flowCookie().serialize(flow) }
}

function isFlow(value: unknown): value is Flow {
  if (!value || typeof value !== 'object') return false
  const f = value as Record<string, unknown>
  return (
    typeof f.state === 'string' &&
    typeof f.nonce === 'string' &&
    typeof f.verifier === 'string' &&
    typeof f.redirectTo === 'string' &&
    typeof f.startedAt === 'number'
  )
}

/** States of flows that reached the callback, until their cookie would have expired: each is used once. */
const usedStates = () => singleton('oidc-used-states', () => new Map<string, number>())

function spendState(state: string, now: number): boolean {
  const used = usedStates()
  for (const [key, expires] of used) if (expires <= now) used.delete(key)
  if (used.has(state)) return false
  used.set(state, now + FLOW_LIFETIME_MS)
  return true
}

export class SignInFailed extends Error {}

export type CallbackResult = { issuer: string; claims: ProviderClaims; redirectTo: string }

/**
 * Checks the provider's answer against the flow this browser started (state, one use, age), then
 * redeems the code with the PKCE verifier; openid-client checks the ID token's signature, issuer,
 * audience, expiry and nonce. Throws SignInFailed, with the reason for the log, when anything is off.
 */
export async function finishSignIn(request: Request, now = Date.now()): Promise<CallbackResult> {
  const flow: unknown = await flowCookie().parse(request.headers.get('Cookie'))
  if (!isFlow(flow)) throw new SignInFailed('no sign-in was started in this browser (or it expired)')
  if (now - flow.startedAt > FLOW_LIFETIME_MS)
    throw new SignInFailed('the sign-in took longer than 10 minutes')
  const search = new URL(request.url).search
  const returnedState = new URLSearchParams(search).get('state')
  if (returnedState !== flow.state)
    throw new SignInFailed('state does not match the browser that started the sign-in')
  if (!spendState(flow.state, now)) throw new SignInFailed('this sign-in was already finished once')
  let config: client.Configuration
  try {
    config = await providerConfiguration(now)
  } catch (error) {
    throw new SignInFailed(describe(error))
  }
  try {
    const oidc = await loadOpenIdClient()
    const currentUrl = new URL(`${getEnv().BASE_URL}${CALLBACK_PATH}${search}`)
    const tokens = await oidc.authorizationCodeGrant(config, currentUrl, {
      pkceCodeVerifier: flow.verifier,
      expectedState: flow.state,
      expectedNonce: flow.nonce,
      idTokenExpected: true,
    })
    const idToken = tokens.claims()
    if (!idToken) throw new Error('no ID token')
    // Providers that keep the ID token small (conformIdTokenClaims) give email and name at UserInfo.
    const userinfo =
      idToken.email === undefined && config.serverMetadata().userinfo_endpoint
        ? await oidc.fetchUserInfo(config, tokens.access_token, idToken.sub)
        : undefined
    const claims = readClaims(idToken, userinfo)
    if (!claims) throw new Error('the ID token has no subject')
    return { issuer: issuerKey(config.serverMetadata().issuer), claims, redirectTo: flow.redirectTo }
  } catch (error) {
    throw new SignInFailed(describe(error))
  }
}

/** Why the last sign-in with the provider did not go through, for /account/log-in to show once. */
function noticeCookie() {
  return singleton('oidc-notice-cookie', () => {
    const env = getEnv()
    return createCookie('storymap_oidc_notice', {
      httpOnly: true,
      sameSite: 'lax',
      secure: env.BASE_URL.startsWith('https://'),
      path: '/account',
      secrets: [env.SESSION_SECRET],
      maxAge: 60,
    })
  })
}

/** Headers of the redirect to /account/login that shows `message` there; the flow cookie is cleared. */
export async function failedSignInHeaders(message: string): Promise<Headers> {
  const headers = new Headers({ Location: '/account/login', 'Cache-Control': 'no-store' })
  headers.append('Set-Cookie', await clearFlowCookie())
  headers.append('Set-Cookie', await noticeCookie().serialize(message))
  return headers
}

/** The notice to show on the log-in page (if any) and the Set-Cookie header that clears it. */
export async function takeSignInNotice(
  request: Request,
): Promise<{ notice: string | null; setCookie: string | null }> {
  const value: unknown = await noticeCookie().parse(request.headers.get('Cookie'))
  if (typeof value !== 'string' || value === '') return { notice: null, setCookie: null }
  return { notice: value, setCookie: await noticeCookie().serialize('', { maxAge: 0, expires: new Date(0) }) }
}
