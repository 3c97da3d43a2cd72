import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { parseEnv, type Env } from './env-schema'
import { singleton } from './singleton.server'

export type ServerEnv = Env & { SESSION_SECRET: string }

/** Keeps a generated secret beside the database so sessions survive restarts. */
function loadOrCreateSessionSecret(databasePath: string): string {
  const dir = path.dirname(path.resolve(databasePath))
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 }) // the data folder: the server's alone (issue 43)
  const file = path.join(dir, 'session-secret')
  try {
    const existing = fs.readFileSync(file, 'utf8').trim()
    if (existing.length >= 32) return existing
  } catch {
    // first start: fall through and create it
  }
  const secret = crypto.randomBytes(32).toString('hex')
  fs.writeFileSync(file, secret + '\n', { mode: 0o600 })
  return secret
}

export class EnvError extends Error {}

/** Reads .env (when present) and validates the environment once per process. */
export function getEnv(): ServerEnv {
  return singleton('env', () => {
    if (fs.existsSync('.env')) process.loadEnvFile('.env')
    const parsed = parseEnv(process.env)
    if (!parsed.ok) throw new EnvError(parsed.message)
    const env = parsed.env
    return { ...env, SESSION_SECRET: env.SESSION_SECRET ?? loadOrCreateSessionSecret(env.DATABASE_PATH) }
  })
}
