import crypto from 'node:crypto'
import { getEnv } from '~/lib/env.server'

/**
 * A project's GitHub token at rest (CONTRACT §13, ADR 26): AES-256-GCM with a key derived from
 * SESSION_SECRET by HKDF-SHA256, a fresh 96-bit nonce per token, and the project id as associated
 * data (a cipher text copied onto another project does not open). Stored as
 * `v1.<nonce>.<tag>.<cipher text>` in base64url. A changed SESSION_SECRET makes stored tokens
 * unreadable: the link then reads as a refused token, and an owner links again.
 */
const VERSION = 'v1'

function key(): Buffer {
  return Buffer.from(crypto.hkdfSync('sha256', getEnv().SESSION_SECRET, 'storymap', 'github-token', 32))
}

export function encryptToken(token: string, projectId: string): string {
  const nonce = crypto.randomBytes(12)
  const cipher = crypto.createCipheriv('aes-256-gcm', key(), nonce)
  cipher.setAAD(Buffer.from(projectId))
  const sealed = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()])
  return [VERSION, nonce, cipher.getAuthTag(), sealed].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.')
}

/** The token, or null when the text does not open with this server's key. */
export function decryptToken(stored: string, projectId: string): string | null {
  const [version, nonce, tag, sealed] = stored.split('.')
  if (version !== VERSION || !nonce || !tag || sealed === undefined) return null
  try {
    const decipher = crypto.createDecipheriv('aes-256-gcm', key(), Buffer.from(nonce, 'base64url'))
    decipher.setAAD(Buffer.from(projectId))
    decipher.setAuthTag(Buffer.from(tag, 'base64url'))
    return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]).toString('utf8')
  } catch {
    return null
  }
}
