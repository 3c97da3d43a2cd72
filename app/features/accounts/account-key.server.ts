import { and, eq, gt } from 'drizzle-orm'
import { getDb } from '~/lib/db/db.server'
import { accountKeys } from '~/lib/db/schema'
import { randomKey, sha256 } from '~/lib/crypto.server'
import type { Tx } from '~/features/map/entities.server'

export type AccountKeyKind = 'verify' | 'reset'

const LIFETIME_MS: Record<AccountKeyKind, number> = {
  verify: 7 * 24 * 60 * 60 * 1000,
  reset: 60 * 60 * 1000,
}

/** A fresh single-use key; earlier keys of the same kind for the account stop working. Only its hash is stored. */
export function issueAccountKey(
  kind: AccountKeyKind,
  accountId: string,
  email: string,
  now = new Date(),
): string {
  const key = randomKey()
  const db = getDb()
  db.transaction(
    (tx) => {
      tx.delete(accountKeys)
        .where(and(eq(accountKeys.accountId, accountId), eq(accountKeys.kind, kind)))
        .run()
      tx.insert(accountKeys)
        .values({
          keyHash: sha256(key),
          kind,
          accountId,
          email,
          createdAt: now.toISOString(),
          expiresAt: new Date(now.getTime() + LIFETIME_MS[kind]).toISOString(),
        })
        .run()
    },
    { behavior: 'immediate' },
  )
  return key
}

/**
 * Uses up a key: returns its row when it exists with this kind and has not expired; an expired one
 * is deleted too. Inside the caller's transaction `tx` when given, so the key and what it unlocks
 * change together.
 */
export function consumeAccountKey(kind: AccountKeyKind, key: string, now = new Date(), tx?: Tx) {
  const keyHash = sha256(key)
  const consume = (t: Tx) => {
    const row = t
      .select()
      .from(accountKeys)
      .where(and(eq(accountKeys.keyHash, keyHash), eq(accountKeys.kind, kind)))
      .get()
    if (!row) return null
    t.delete(accountKeys).where(eq(accountKeys.keyHash, keyHash)).run()
    return row.expiresAt > now.toISOString() ? row : null
  }
  return tx ? consume(tx) : getDb().transaction(consume, { behavior: 'immediate' })
}

export function hasLiveAccountKey(kind: AccountKeyKind, key: string, now = new Date()): boolean {
  const row = getDb()
    .select({ kind: accountKeys.kind })
    .from(accountKeys)
    .where(and(eq(accountKeys.keyHash, sha256(key)), gt(accountKeys.expiresAt, now.toISOString())))
    .get()
  return row?.kind === kind
}
