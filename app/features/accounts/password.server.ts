import argon2 from 'argon2'
import { singleton } from '~/lib/singleton.server'

// OWASP's argon2id profile (19 MiB, 2 passes): strong, and quick enough for a 2-core box.
const OPTIONS = { type: argon2.argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, OPTIONS)
}

/**
 * Made once, ahead of the first log-in (server start calls this), so even the first unknown
 * address costs one verification and no extra hashing.
 */
export function prepareDummyHash(): Promise<string> {
  return singleton('dummy-password-hash', () => hashPassword('storymap-dummy-password'))
}

/** Verifies a password; with no stored hash it still spends the same time, so unknown addresses don't show. */
export async function verifyPassword(hash: string | undefined, password: string): Promise<boolean> {
  const target = hash ?? (await prepareDummyHash())
  try {
    const ok = await argon2.verify(target, password)
    return ok && hash !== undefined
  } catch {
    return false
  }
}
