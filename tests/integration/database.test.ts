import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { expect, it } from 'vitest'
import { openDatabase } from '~/lib/db/db.server'

it('opens with WAL, foreign keys, a busy timeout and NORMAL sync, and applies every migration', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'storymap-db-'))
  const db = openDatabase(path.join(dir, 'nested', 'storymap.db'))
  try {
    const pragma = (name: string) => db.$client.pragma(name, { simple: true })
    expect(pragma('journal_mode')).toBe('wal')
    expect(pragma('foreign_keys')).toBe(1)
    expect(pragma('busy_timeout')).toBe(5000)
    expect(pragma('synchronous')).toBe(1) // NORMAL
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
