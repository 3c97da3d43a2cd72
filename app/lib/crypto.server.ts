import crypto from 'node:crypto'

/** 256 random bits, URL-safe: session tokens, one-time keys, invite codes, share links. */
export function randomKey(): string {
  return crypto.randomBytes(32).toString('base64url')
}

export function sha256(value: string): string {
  return crypto.hash('sha256', value)
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'

/** `length` random base62 characters (API token secrets); unbiased: bytes of 248 and above are skipped. */
export function randomBase62(length: number): string {
  let out = ''
  while (out.length < length) {
    for (const byte of crypto.randomBytes(length)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62]
    }
  }
  return out
}

/** Equal strings, compared in time that does not depend on where they differ. */
export function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a)
  const right = Buffer.from(b)
  return left.length === right.length && crypto.timingSafeEqual(left, right)
}
