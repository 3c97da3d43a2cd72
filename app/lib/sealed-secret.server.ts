import crypto from 'node:crypto'
import type Database from 'better-sqlite3'
import { getEnv } from '~/lib/env.server'

/**
 * Secrets the server must read back, as they are kept at rest (ADR 26, issue 43): a project's
 * GitHub token and webhook secret, an endpoint's webhook signing secret. AES-256-GCM with a key
 * derived from SESSION_SECRET by HKDF-SHA256 (one key per purpose), a fresh 96-bit nonce each
 * time, and the owning row's id as associated data (a cipher text copied onto another row does
 * not open). Stored as `v1.<nonce>.<tag>.<cipher text>` in base64url. A changed SESSION_SECRET
 * makes them unreadable: each owner of such a secret says what that means for its feature.
 */
export type SecretPurpose =
  'github-token' | 'github-webhook-secret' | 'webhook-secret' | 'tracker-token' | 'tracker-webhook-secret'

const VERSION = 'v1'

function key(purpose: SecretPurpose): Buffer {
  return Buffer.from(crypto.hkdfSync('sha256', getEnv().SESSION_SECRET, 'storymap', purpose, 32))
}

export function sealSecret(purpose: SecretPurpose, boundTo: string, secret: string): string {
  const nonce = crypto.randomBytes(12)
  const cipher = crypto.createCipheriv('aes-256-gcm', key(purpose), nonce)
  cipher.setAAD(Buffer.from(boundTo))
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()])
  return [VERSION, ...[nonce, cipher.getAuthTag(), sealed].map((part) => part.toString('base64url'))].join(
    '.',
  )
}

/** The secret, or null when the text does not open with this server's key. */
export function openSecret(purpose: SecretPurpose, boundTo: string, stored: string): string | null {
  const [version, nonce, tag, sealed] = stored.split('.')
  if (version !== VERSION || !nonce || !tag || sealed === undefined) return null
  try {
    const decipher = crypto.createDecipheriv('aes-256-gcm', key(purpose), Buffer.from(nonce, 'base64url'))
    decipher.setAAD(Buffer.from(boundTo))
    decipher.setAuthTag(Buffer.from(tag, 'base64url'))
    return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]).toString(
      'utf8',
    )
  } catch {
    return null
  }
}

/** A stored value that is sealed text (a secret in clear has no `v1.` head: `whsec_…`, hex). */
export const isSealed = (stored: string) => stored.startsWith(`${VERSION}.`)

export type SealedColumn = { table: string; id: string; column: string; purpose: SecretPurpose }

/**
 * Seals the values of a column still in clear: rows written before the column held sealed text
 * (migration 0013 renamed it; SQL cannot reach SESSION_SECRET, so this runs at start, after the
 * migrations). With secure_delete the old cells are zeroed, and the log is checkpointed and
 * truncated, so the clear text stays neither in the file's free space nor in the WAL. Returns
 * how many rows it sealed (none after the first start).
 */
export function sealClearSecrets(
  client: Database.Database,
  { table, id, column, purpose }: SealedColumn,
): number {
  const clear = client
    .prepare(`select ${id} as id, ${column} as secret from ${table} where ${column} not like '${VERSION}.%'`)
    .all() as { id: string; secret: string }[]
  if (clear.length === 0) return 0
  const before = client.pragma('secure_delete', { simple: true })
  client.pragma('secure_delete = ON')
  try {
    const update = client.prepare(`update ${table} set ${column} = ? where ${id} = ? and ${column} = ?`)
    client.transaction(() => {
      for (const row of clear) update.run(sealSecret(purpose, row.id, row.secret), row.id, row.secret)
    })()
    client.pragma('wal_checkpoint(TRUNCATE)')
  } finally {
    client.pragma(`secure_delete = ${Number(before)}`)
  }
  return clear.length
}
