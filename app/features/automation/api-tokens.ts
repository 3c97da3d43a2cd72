import { z } from 'zod'

/**
 * Personal API tokens (CONTRACT §10): their shape, who may use them where, and their lifetime.
 * Pure rules; storage and hashing are in app/features/automation/api-token.server.ts.
 */
export const TOKEN_PREFIX = 'smp_'
/** Random base62 characters after the prefix (about 238 bits). */
export const TOKEN_RANDOM_LENGTH = 40
/** What lists show of a secret: `smp_` and 4 more characters. */
export const PREFIX_LENGTH = 8
export const TOKEN_NAME_MAX = 100
export const TOKEN_SCOPES = ['read', 'write'] as const
export type TokenScope = (typeof TOKEN_SCOPES)[number]
/** Requests a minute one token may make (CONTRACT §10). */
export const TOKEN_REQUESTS_PER_MINUTE = 120
/** `lastUsedAt` is written at most this often. */
export const LAST_USED_EVERY_MS = 60_000

const TOKEN_SHAPE = /^smp_[0-9A-Za-z]{32,200}$/

export const createTokenSchema = z.object({
  name: z
    .string({ error: 'Name is required.' })
    .trim()
    .min(1, 'Name is required.')
    .max(TOKEN_NAME_MAX, `Maximum ${TOKEN_NAME_MAX} characters.`),
  workspaceId: z.uuid({ error: 'Choose a workspace.' }),
  scope: z.enum(TOKEN_SCOPES, { error: 'Scope is read or write.' }),
  expiresInDays: z
    .number({ error: 'Expiry is a number of days.' })
    .int('Expiry is a number of days.')
    .min(1, 'Expiry is 1 to 365 days.')
    .max(365, 'Expiry is 1 to 365 days.')
    .nullish(),
})
export type CreateTokenInput = z.output<typeof createTokenSchema>

/** What the `Authorization` header says: nothing, a well-formed bearer secret, or something else. */
export type BearerHeader = { kind: 'none' } | { kind: 'malformed' } | { kind: 'token'; secret: string }

export function readBearer(header: string | null): BearerHeader {
  if (header === null) return { kind: 'none' }
  const match = /^Bearer[ ]+(\S*)\s*$/i.exec(header.trim())
  if (!match) return { kind: 'malformed' }
  const secret = match[1]
  return TOKEN_SHAPE.test(secret) ? { kind: 'token', secret } : { kind: 'malformed' }
}

/** A secret put in the query string (`?access_token=…`, or any value shaped like one). */
export function tokenInQuery(search: URLSearchParams): boolean {
  for (const [name, value] of search) {
    if (name === 'access_token' || value.startsWith(TOKEN_PREFIX)) return true
  }
  return false
}

/** The 8 characters lists show of a secret. */
export const prefixOf = (secret: string) => secret.slice(0, PREFIX_LENGTH)

export function expiresAtFor(now: Date, days: number | null | undefined): string | null {
  return days ? new Date(now.getTime() + days * 86_400_000).toISOString() : null
}

export const isExpired = (expiresAt: string | null, now: Date) =>
  expiresAt !== null && Date.parse(expiresAt) <= now.getTime()

export const lastUsedIsStale = (lastUsedAt: string | null, now: Date) =>
  lastUsedAt === null || now.getTime() - Date.parse(lastUsedAt) >= LAST_USED_EVERY_MS

export type TokenRefusal = { code: 'token_not_allowed' | 'token_read_only'; message: string }

/**
 * Whether a token may make this call at all, before the member's own rights are checked:
 * account and sign-in routes, deleting a workspace and managing tokens need a session; a `read`
 * token may only read.
 */
export function tokenRefusal(method: string, pathname: string, scope: TokenScope): TokenRefusal | null {
  const path = pathname.replace(/\/+$/, '')
  const sessionOnly =
    path.startsWith('/v1/account/') ||
    path === '/v1/account' ||
    ((path.startsWith('/v1/users/') || path === '/v1/users') &&
      !(method === 'POST' && path === '/v1/users/contact')) ||
    (method === 'POST' && path === '/v1/delete') ||
    path === '/v1/workspace/tokens' ||
    path.startsWith('/v1/workspace/tokens/')
  if (sessionOnly)
    return { code: 'token_not_allowed', message: 'This call needs a signed-in session, not an API token.' }
  if (scope === 'read' && method !== 'GET' && method !== 'HEAD')
    return { code: 'token_read_only', message: 'This token may only read.' }
  return null
}

export { authorLabel } from '~/features/map/author-label'
