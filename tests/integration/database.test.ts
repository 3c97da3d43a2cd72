import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { expect, it } from 'vitest'
import { openDatabase, PAGE_CACHE_KIB } from '~/lib/db/db.server'

it('opens with WAL, foreign keys, a busy timeout, NORMAL sync and a small page cache, and applies every migration', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'storymap-db-'))
  const db = openDatabase(path.join(dir, 'nested', 'storymap.db'))
  try {
    const pragma = (name: string) => db.$client.pragma(name, { simple: true })
    expect(pragma('journal_mode')).toBe('wal')
    expect(pragma('foreign_keys')).toBe(1)
    expect(pragma('busy_timeout')).toBe(5000)
    expect(pragma('synchronous')).toBe(1) // NORMAL
    expect(PAGE_CACHE_KIB).toBeLessThan(16_000) // better-sqlite3's own
    expect(pragma('cache_size')).toBe(-PAGE_CACHE_KIB)
    const journal = JSON.parse(fs.readFileSync('drizzle/meta/_journal.json', 'utf8')) as {
      entries: unknown[]
    }
    const applied = db.$client.prepare('select count(*) as n from __drizzle_migrations').get() as {
      n: number
    }
    expect(applied.n).toBe(journal.entries.length)
    // Every table that carries a workspace id can be found (and cascaded) by it without a scan.
    const tables = db.$client
      .prepare(
        "select m.name from sqlite_master m where m.type = 'table' and exists (select 1 from pragma_table_info(m.name) where name = 'workspace_id')",
      )
      .all() as { name: string }[]
    expect(tables.length).toBeGreaterThan(8)
    for (const { name } of tables) {
      const indexed = db.$client
        .prepare(
          `select 1 from pragma_index_list(?) l where (select name from pragma_index_info(l.name) where seqno = 0) = 'workspace_id'`,
        )
        .get(name)
      expect([name, Boolean(indexed)]).toEqual([name, true])
    }
  } finally {
    db.$client.close()
    fs.rmSync(dir, { recursive: true, force: true })
  }
})

it('makes its folder 0700 and the database, -wal and -shm 0600, also a file an older version made 0644 (issue 43)', () => {
  const umask = process.umask(0o022) // as most hosts have it: the modes must not depend on it
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'storymap-db-'))
  const modeOf = (file: string) => (fs.statSync(file).mode & 0o777).toString(8)
  try {
    const file = path.join(dir, 'nested', 'storymap.db')
    const db = openDatabase(file)
    db.$client.exec('create table probe (x)')
    expect(modeOf(path.join(dir, 'nested'))).toBe('700')
    for (const each of [file, `${file}-wal`, `${file}-shm`])
      expect([each, modeOf(each)]).toEqual([each, '600'])
    db.$client.close()

    const older = path.join(dir, 'older.db')
    fs.writeFileSync(older, '')
    fs.chmodSync(older, 0o644)
    const reopened = openDatabase(older)
    for (const each of [older, `${older}-wal`, `${older}-shm`])
      expect([each, modeOf(each)]).toEqual([each, '600'])
    reopened.$client.close()
  } finally {
    process.umask(umask)
    fs.rmSync(dir, { recursive: true, force: true })
  }
})
