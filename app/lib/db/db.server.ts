import Database from 'better-sqlite3'
import { drizzle, type BetterSQLite3Database } from 'drizzle-orm/better-sqlite3'
import { migrate } from 'drizzle-orm/better-sqlite3/migrator'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { getEnv } from '~/lib/env.server'
import { singleton } from '~/lib/singleton.server'
import { timeWrites } from '~/lib/metrics.server'
import { isPageWorker } from '~/lib/page-worker-role.server'
/**
 * Drizzle without the schema: we never use its relational `db.query` API, and with a schema every
 * transaction built a query builder per table (3.5 % of what the main thread allocated under the
 * capacity bench's writes, issue 34). The tables come from `./schema` where a query names them.
 */
export type Db = BetterSQLite3Database & { $client: Database.Database }

/** The folder of SQL migrations, found upward from this module (works from source and from build/). */
function migrationsFolder(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url))
  for (let i = 0; i < 6; i++) {
    const candidate = path.join(dir, 'drizzle')
    if (fs.existsSync(path.join(candidate, 'meta', '_journal.json'))) return candidate
    dir = path.dirname(dir)
  }
  return path.resolve('drizzle')
}

/**
 * Maps, sessions and sealed secrets are the server's alone (issue 43): a data folder it creates is
 * 0700, and the database 0600 (also a file made 0644 by an older version). SQLite gives the -wal
 * and -shm files the database's mode, so this comes before WAL mode.
 */
function keepPrivate(file: string) {
  for (const each of [file, `${file}-wal`, `${file}-shm`]) {
    try {
      if ((fs.statSync(each).mode & 0o077) !== 0) fs.chmodSync(each, 0o600)
    } catch {
      // missing (no -wal yet), or not ours to change: the files stay as their owner made them
    }
  }
}

/**
 * Each connection's page cache, in KiB (SQLite's negative `cache_size`). better-sqlite3 builds
 * SQLite with 16 MB; with the main thread's and each page thread's connection both full of a
 * large database's pages that was 20–30 MB of the server's memory at 640 teams, for reads the
 * operating system's file cache answers nearly as fast (issue 49, ADR 45).
 */
export const PAGE_CACHE_KIB = 4000

export function openDatabase(file: string): Db {
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true, mode: 0o700 })
  const sqlite = new Database(file)
  keepPrivate(file)
  sqlite.pragma('journal_mode = WAL')
  sqlite.pragma('foreign_keys = ON')
  sqlite.pragma('busy_timeout = 5000')
  sqlite.pragma('synchronous = NORMAL')
  sqlite.pragma(`cache_size = -${PAGE_CACHE_KIB}`)
  const db = drizzle(sqlite) as Db
  migrate(db, { migrationsFolder: migrationsFolder() })
  return db
}

export function getDb(): Db {
  return singleton('db', () => {
    const db = openDatabase(getEnv().DATABASE_PATH)
    // Writes are timed on the main thread's connection (a page thread's at most renews a session).
    if (!isPageWorker()) timeWrites(db.$client)
    return db
  })
}

/** Checkpoints the WAL into the main file and closes the connection (graceful shutdown). */
export function closeDatabase() {
  const store = globalThis as unknown as { __storymapSingletons?: Map<string, unknown> }
  const db = store.__storymapSingletons?.get('db') as Db | undefined
  if (!db) return
  try {
    db.$client.pragma('wal_checkpoint(TRUNCATE)')
  } finally {
    db.$client.close()
    store.__storymapSingletons?.delete('db')
  }
}
