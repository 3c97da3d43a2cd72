// npm run backup -- FILE: a consistent copy of the live database (SQLite's online backup API),
// safe while the server is running and writing. The copy is one file, readable by its owner only:
// it holds every map, session and sealed secret (issue 43).
import Database from 'better-sqlite3'
import fs from 'node:fs'
import path from 'node:path'

const target = process.argv[2]
if (!target) {
  console.error('Usage: npm run backup -- FILE')
  process.exit(2)
}
process.umask(0o077) // a folder made for the copy is 0700, the copy 0600
if (fs.existsSync('.env')) process.loadEnvFile('.env')
const source = process.env.DATABASE_PATH || './data/storymap.db'
if (!fs.existsSync(source)) {
  console.error(`No database at ${source} (set DATABASE_PATH).`)
  process.exit(1)
}
fs.mkdirSync(path.dirname(path.resolve(target)), { recursive: true, mode: 0o700 })
const db = new Database(source, { fileMustExist: true })
db.pragma('busy_timeout = 5000')
try {
  await db.backup(target)
  fs.chmodSync(target, 0o600) // also when FILE was there before, with other modes
  // The copy says WAL like its source: opened so, it gets -wal and -shm files beside it, which a
  // read-only connection leaves behind. In rollback mode it is one file; the server turns WAL on
  // again when it opens a restored copy.
  const copy = new Database(target)
  let check
  try {
    copy.pragma('journal_mode = DELETE')
    check = copy.pragma('integrity_check', { simple: true })
  } finally {
    copy.close()
  }
  if (check !== 'ok') throw new Error(`integrity check of the copy said: ${check}`)
  console.log(`Backed up ${source} to ${target} (${fs.statSync(target).size} bytes, integrity ok).`)
} catch (error) {
  console.error(`Backup failed: ${error.message}`)
  process.exitCode = 1
} finally {
  db.close()
}
