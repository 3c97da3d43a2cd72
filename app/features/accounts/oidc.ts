/**
 * Single sign-on with OpenID Connect (CONTRACT §11): the texts, and the rules that decide what a
 * sign-in with the provider does. No I/O here; app/features/accounts/oidc.server.ts talks to the provider and
 * app/features/accounts/oidc-identity.server.ts to the database.
 */

export const oidcTexts = (name: string) => ({
  button: `Sign in with ${name}`,
  failed: `Sign-in with ${name} failed. Try again.`,
  notVerified: (email: string) => `Sign-in with ${name} failed: ${email} is not verified.`,
  noAccount: (email: string) => `No account for ${email}. Ask for an invitation.`,
  signedInAs: (email: string) => `Signed in with ${name} as ${email}`,
  passwordLoginDisabled: `Password log-in is turned off on this server. Sign in with ${name}.`,
})

/** The error code of a password log-in or sign-up while OIDC_ONLY is on (403). */
export const PASSWORD_LOGIN_DISABLED = 'password_login_disabled'

/** `password_hash` of an account without a password (made by single sign-on): never a valid hash. */
export const NO_PASSWORD = ''

export function hasPassword(passwordHash: string): boolean {
  return passwordHash !== NO_PASSWORD
}

/** What the provider said about the person, as far as the rules below need it. */
export type ProviderClaims = { sub: string; email?: string; emailVerified: boolean; name?: string }

export type SignInFacts = {
  claims: ProviderClaims
  /** The account already linked to this issuer + sub. */
  linkedAccountId: string | null
  /** The account with the provider's e-mail (compared in lower case). */
  accountIdByEmail: string | null
  /** A pending invitation exists for the provider's e-mail. */
  invited: boolean
  signupOpen: boolean
}

export type SignInDecision =
  | { kind: 'signIn'; accountId: string }
  | { kind: 'link'; accountId: string; email: string }
  | { kind: 'createInvited'; email: string }
  | { kind: 'createWithWorkspace'; email: string }
  | { kind: 'refuseUnverified'; email: string }
  | { kind: 'refuseNoAccount'; email: string }
  | { kind: 'fail' }

/**
 * CONTRACT §11: a linked subject signs in; otherwise only a verified e-mail is used: it links the
 * account with that address, or makes a new one through a pending invitation or open sign-up.
 */
export function decideSignIn(facts: SignInFacts): SignInDecision {
  if (facts.linkedAccountId) return { kind: 'signIn', accountId: facts.linkedAccountId }
  const email = facts.claims.email?.trim()
  if (!email) return { kind: 'fail' }
  if (!facts.claims.emailVerified) return { kind: 'refuseUnverified', email }
  if (facts.accountIdByEmail) return { kind: 'link', accountId: facts.accountIdByEmail, email }
  if (facts.invited) return { kind: 'createInvited', email }
  if (facts.signupOpen) return { kind: 'createWithWorkspace', email }
  return { kind: 'refuseNoAccount', email }
}

/** Reads the ID token claims (and, when present, the UserInfo answer) the rules need. */
export function readClaims(
  idToken: Record<string, unknown>,
  userinfo?: Record<string, unknown>,
): ProviderClaims | null {
  const sub = idToken.sub
  if (typeof sub !== 'string' || sub === '') return null
  // UserInfo is used only when it is about the same subject (OpenID Connect Core §5.3.2).
  const extra = userinfo && userinfo.sub === sub ? userinfo : {}
  const pick = (key: string) => (key in idToken ? idToken[key] : extra[key as keyof typeof extra])
  const email = pick('email')
  const verified = pick('email_verified')
  const name = pick('name')
  return {
    sub,
    email: typeof email === 'string' && email.trim() !== '' ? email.trim() : undefined,
    // Some providers send the string "true"; anything else is not a verification.
    emailVerified: verified === true || verified === 'true',
    name: typeof name === 'string' && name.trim() !== '' ? name.trim() : undefined,
  }
}

const MAX_NAME = 200

/** The new account's name: the provider's `name`, else the e-mail's local part. */
export function accountNameFor(claims: ProviderClaims, email: string): string {
  const name = claims.name ?? email.split('@')[0] ?? email
  return name.slice(0, MAX_NAME)
}

/**
 * A first workspace's name from the e-mail's local part, in the workspace rules (lowercase
 * letters and digits, 2 to 200): `Jane.Doe+maps@x` gives `janedoe`. `taken` says whether a name
 * is used (or reserved); a number is added until it is free: `janedoe2`, `janedoe3`, …
 */
export function workspaceNameFor(email: string, taken: (name: string) => boolean): string {
  // The local part without a sub-address tag: jane+maps@ is jane.
  let base = (email.split('@')[0] ?? '')
    .split('+')[0]
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '')
    .slice(0, 180)
  if (base.length < 2) base = `${base}workspace`
  if (!taken(base)) return base
  for (let n = 2; ; n += 1) {
    const candidate = `${base}${n}`
    if (!taken(candidate)) return candidate
  }
}
