import crypto from 'node:crypto'

/** 256 random bits, URL-safe: session tokens, one-time keys, invite codes, share links. */
export function randomKey(): string {
  return crypto.randomBytes(32).toString('base64url')
}

export function sha256(value: string): string {
  return crypto.createHash('sha256').update(value).digest('hex')
}
