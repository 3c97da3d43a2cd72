import argon2 from 'argon2'

// OWASP's argon2id profile (19 MiB, 2 passes): strong, and quick enough for a 2-core box.
const OPTIONS = { type: argon2.argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, OPTIONS)
}

let dummyHash: Promise<string> | undefined

/** Verifies a password; with no stored hash it still spends the same time, so unknown addresses don't show. */
export async function verifyPassword(hash: string | undefined, password: string): Promise<boolean> {
  dummyHash ??= hashPassword('storymap-dummy-password')
  const target = hash ?? (await dummyHash)
  try {
    const ok = await argon2.verify(target, password)
    return ok && hash !== undefined
  } catch {
    return false
  }
}
