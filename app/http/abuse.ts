/**
 * Abuse rules (issue #7): which requests are rate limited, how many each IP address and each
 * account may make, what counts as "the account", and the honeypot field of public forms.
 * Pure: the Express middleware (server/rate-limits.ts) and the page actions apply them.
 */

export type LimitedAction = 'login' | 'signup' | 'reset' | 'contact' | 'invite'

/**
 * Where a limited request comes from, which decides how a refusal is answered:
 * `api` JSON under /v1; `form` a page (public forms, workspace settings) whose action shows the
 * refusal in its form.
 */
export type Surface = 'api' | 'form'

export type LimitPolicy = {
  windowMs: number
  perIp: number
  perAccount: number
  /** Only failed attempts count: a log-in that starts a session is free. */
  failuresOnly: boolean
}

const MINUTE = 60_000

export const LIMIT_POLICIES: Record<LimitedAction, LimitPolicy> = {
  login: { windowMs: 15 * MINUTE, perIp: 50, perAccount: 10, failuresOnly: true },
  signup: { windowMs: 60 * MINUTE, perIp: 20, perAccount: 5, failuresOnly: false },
  reset: { windowMs: 60 * MINUTE, perIp: 20, perAccount: 5, failuresOnly: false },
  contact: { windowMs: 60 * MINUTE, perIp: 10, perAccount: 5, failuresOnly: false },
  invite: { windowMs: 60 * MINUTE, perIp: 100, perAccount: 50, failuresOnly: false },
}

export type LimitedRequest = {
  action: LimitedAction
  surface: Surface
  /** The account key comes from this body field (an e-mail address)... */
  accountField?: 'email' | 'sender'
  /** ...or from this path segment (an e-mail address)... */
  accountFromPath?: string
  /** ...or from the session (the signed-in account). */
  accountFromSession?: boolean
  /** Only these values of the form's `intent` field are limited (a page with several forms). */
  intents?: string[]
}

/**
 * The path as the router will match it: dot segments resolved, percent-decoded, lower case,
 * repeated and trailing slashes dropped, without the `.data` suffix of Remix data requests.
 * Matching is deliberately at least as broad as the router's, so no spelling slips past a limit.
 */
export function normalizePath(rawUrl: string): string {
  let pathname: string
  try {
    pathname = new URL(`http://host${rawUrl.startsWith('/') ? '' : '/'}${rawUrl}`).pathname
  } catch {
    pathname = rawUrl.split('?')[0]
  }
  let decoded = pathname
  try {
    decoded = decodeURIComponent(pathname)
  } catch {
    // keep the raw form; the router refuses it too
  }
  const path = decoded
    .toLowerCase()
    .replace(/\/{2,}/g, '/')
    .replace(/\.data$/, '')
    .replace(/\/+$/, '')
  return path === '' ? '/' : path
}

/** Whether a request is one of the limited actions, and how to find its account. */
export function limitedRequestOf(method: string, rawUrl: string): LimitedRequest | null {
  if (method.toUpperCase() !== 'POST') return null
  const path = normalizePath(rawUrl)
  switch (path) {
    case '/v1/users/login':
      return { action: 'login', surface: 'api', accountField: 'email' }
    case '/account/login':
      return { action: 'login', surface: 'form', accountField: 'email' }
    case '/v1/users/signup':
      return { action: 'signup', surface: 'api', accountField: 'email' }
    case '/account/signup':
      return { action: 'signup', surface: 'form', accountField: 'email' }
    case '/account/reset':
      return { action: 'reset', surface: 'form', accountField: 'email' }
    case '/v1/users/contact':
      return { action: 'contact', surface: 'api', accountField: 'sender' }
    case '/account/contact':
      return { action: 'contact', surface: 'form', accountField: 'sender' }
    case '/v1/invites':
      return { action: 'invite', surface: 'api', accountFromSession: true }
  }
  const reset = /^\/v1\/users\/reset\/([^/]+)$/.exec(path)
  if (reset) return { action: 'reset', surface: 'api', accountFromPath: reset[1] }
  if (/^\/v1\/invites\/[^/]+\/resend$/.test(path))
    return { action: 'invite', surface: 'api', accountFromSession: true }
  if (/^\/[^/]+\/settings$/.test(path) && !path.startsWith('/account/')) {
    return {
      action: 'invite',
      surface: 'form',
      accountFromSession: true,
      intents: ['invite', 'resendInvite'],
    }
  }
  return null
}

/** The per-account key of an e-mail address as typed: trimmed, lower case; null when absent or absurd. */
export function emailKey(value: unknown): string | null {
  if (typeof value !== 'string') return null
  const email = value.trim().toLowerCase()
  if (email === '' || email.length > 320) return null
  return `email:${email}`
}

/** "Too many attempts. Please try again in 15 minutes." */
export function tooManyMessage(retryAfterSeconds: number): string {
  const minutes = Math.ceil(retryAfterSeconds / 60)
  const when = minutes <= 1 ? 'a minute' : `${minutes} minutes`
  return `Too many attempts. Please try again in ${when}.`
}

/**
 * Public forms carry this field, hidden from people; a bot that fills every field gives itself away.
 * The name avoids every browser autofill hint.
 */
export const HONEYPOT_FIELD = 'sm_trap'

export const HONEYPOT_MESSAGE = 'Your form could not be sent. Please try again.'

export function honeypotFilled(value: unknown): boolean {
  return typeof value === 'string' ? value.length > 0 : value != null
}
