// npm run backup -- FILE: a consistent copy of the live database (SQLite's online backup API),
// safe while the server is running and writing.
import Database from 'better-sqlite3'
import fs from 'node:fs'
import path from 'node:path'

const target = process.argv[2]
if (!target) {
  console.error('Usage: npm run backup -- FILE')
  process.exit(2)
}
if (fs.existsSync('.env')) process.loadEnvFile('.env')
const source = process.env.DATABASE_PATH || './data/storymap.db'
if (!fs.existsSync(source)) {
  console.error(`No database at ${source} (set DATABASE_PATH).`)
  process.exit(1)
}
fs.mkdirSync(path.dirname(path.resolve(target)), { recursive: true })
const db = new Database(source, { fileMustExist: true })
db.pragma('busy_timeout = 5000')
try {
  await db.backup(target)
  const copy = new Database(target, { readonly: true })
  const check = copy.pragma('integrity_check', { simple: true })
  copy.close()
  if (check !== 'ok') throw new Error(`integrity check of the copy said: ${check}`)
  console.log(`Backed up ${source} to ${target} (${fs.statSync(target).size} bytes, integrity ok).`)
} catch (error) {
  console.error(`Backup failed: ${error.message}`)
  process.exitCode = 1
} finally {
  db.close()
}
