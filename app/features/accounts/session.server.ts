import { createCookie } from 'react-router'
import { LRUCache } from 'lru-cache'
import { eq, lt, sql } from 'drizzle-orm'
import { getDb } from '~/lib/db/db.server'
import { prepared } from '~/lib/db/prepared.server'
import { accounts, sessions } from '~/lib/db/schema'
import { getEnv } from '~/lib/env.server'
import { randomKey, sha256 } from '~/lib/crypto.server'
import { singleton } from '~/lib/singleton.server'
import { accessCached, keepAccessRow } from '~/lib/db/access-cache.server'

const IDLE_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000
/** Sliding expiry is written at most once a day per session. */
const REFRESH_AFTER_MS = 24 * 60 * 60 * 1000
export const SESSION_COOKIE = 'storymap_session'

function sessionCookie() {
  return singleton('session-cookie', () => {
    const env = getEnv()
    return createCookie(SESSION_COOKIE, {
      httpOnly: true,
      sameSite: 'lax',
      secure: env.BASE_URL.startsWith('https://'),
      path: '/',
      secrets: [env.SESSION_SECRET],
      maxAge: IDLE_LIFETIME_MS / 1000,
    })
  })
}

export type SessionAccount = typeof accounts.$inferSelect

/**
 * Starts a new server-side session (a fresh id at every log-in) and returns its Set-Cookie header.
 * The session the request came with, if any, ends in the same transaction: an id planted in a
 * victim's browser before log-in (session fixation) is worthless afterwards.
 */
export async function createSession(accountId: string, request?: Request, now = new Date()): Promise<string> {
  const token = randomKey()
  const previous = request ? await readToken(request) : null
  getDb().transaction(
    (tx) => {
      if (previous)
        tx.delete(sessions)
          .where(eq(sessions.id, sha256(previous)))
          .run()
      tx.insert(sessions)
        .values({
          id: sha256(token),
          accountId,
          createdAt: now.toISOString(),
          expiresAt: new Date(now.getTime() + IDLE_LIFETIME_MS).toISOString(),
        })
        .run()
    },
    { behavior: 'immediate' },
  )
  return sessionCookie().serialize(token)
}

/**
 * Cookie headers whose session cookie was already checked, with the token they carry. Checking the
 * signature goes through WebCrypto (a key import and an HMAC as an async job) on every request: 5 %
 * of the main thread at 320 teams (docs/benchmarks.md). A browser sends the same header on every
 * request, and a signature valid once stays valid for this process's secret.
 */
const checkedHeaders = () =>
  singleton('session-cookie-headers', () => new LRUCache<string, { token: string | null }>({ max: 10_000 }))

async function readToken(request: Request): Promise<string | null> {
  const header = request.headers.get('Cookie')
  if (!header) return null
  const cache = header.length <= 1024 ? checkedHeaders() : null
  const known = cache?.get(header)
  if (known) return known.token
  const value = await sessionCookie().parse(header)
  const token = typeof value === 'string' && value.length > 0 ? value : null
  cache?.set(header, { token })
  return token
}

const liveSessionQuery = () =>
  prepared('live-session', (db) =>
    db
      .select({ account: accounts, expiresAt: sessions.expiresAt })
      .from(sessions)
      .innerJoin(accounts, eq(accounts.id, sessions.accountId))
      .where(eq(sessions.id, sql.placeholder('id')))
      .prepare(),
  )

/** The signed-in account, or null when there is no live session. */
export async function getSessionAccount(request: Request, now = new Date()): Promise<SessionAccount | null> {
  return (await getLiveSession(request, now))?.account ?? null
}

/** The request's live session (its id is what the database keys it by) and account, or null. */
export async function getLiveSession(
  request: Request,
  now = new Date(),
): Promise<{ id: string; account: SessionAccount } | null> {
  const token = await readToken(request)
  if (!token) return null
  const id = sha256(token)
  const row = accessCached('live-session', id, () => liveSessionQuery().get({ id }) ?? null)
  if (!row || Date.parse(row.expiresAt) <= now.getTime()) return null
  if (Date.parse(row.expiresAt) - now.getTime() < IDLE_LIFETIME_MS - REFRESH_AFTER_MS) {
    const expiresAt = new Date(now.getTime() + IDLE_LIFETIME_MS).toISOString()
    getDb().update(sessions).set({ expiresAt }).where(eq(sessions.id, id)).run()
    keepAccessRow('live-session', id, { ...row, expiresAt })
  }
  return { id, account: row.account }
}

/** Ends the request's session on the server and returns a Set-Cookie header that clears it. */
export async function destroySession(request: Request): Promise<string> {
  const token = await readToken(request)
  if (token)
    getDb()
      .delete(sessions)
      .where(eq(sessions.id, sha256(token)))
      .run()
  return sessionCookie().serialize('', { maxAge: 0, expires: new Date(0) })
}

/** Ends every session of an account (password reset or change, account deletion), inside `tx` when given. */
export function destroyAllSessions(
  accountId: string,
  tx: Pick<ReturnType<typeof getDb>, 'delete'> = getDb(),
) {
  tx.delete(sessions).where(eq(sessions.accountId, accountId)).run()
}

export function purgeExpiredSessions(now = new Date()) {
  getDb().delete(sessions).where(lt(sessions.expiresAt, now.toISOString())).run()
}
