import Database from 'better-sqlite3'
import fs from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { signUp } from '../support/client'
import { startServer, type RunningServer } from '../support/server'
import { startWalCheckpointer } from '../../server/wal-checkpointer'

/**
 * Checkpoints run on a thread of their own every second (server/wal-checkpointer.ts, issue 34):
 * no commit waits for the write-ahead log to be copied into the database file. SQLite's own
 * automatic checkpoint would leave a small write in the log until 1,000 pages had gathered.
 */
let server: RunningServer
beforeAll(async () => {
  server = await startServer()
})
afterAll(async () => {
  await server?.stop()
})

/** What the database file alone holds, without its write-ahead log. */
function fileAlone(email: string) {
  const copy = path.join(server.dir, `alone-${Date.now()}.db`)
  fs.copyFileSync(server.dbPath, copy)
  const db = new Database(copy, { readonly: true })
  try {
    return db.prepare('select name from accounts where email = ?').get(email) as { name: string } | undefined
  } finally {
    db.close()
    fs.rmSync(copy, { force: true })
  }
}

it('copies a small write from the log into the database file within seconds', async () => {
  const person = await signUp(server.url, { name: 'Checkpointed Person' })
  await expect
    .poll(() => fileAlone(person.email), { timeout: 5_000, interval: 200 })
    .toEqual({ name: 'Checkpointed Person' })
})

it('hands checkpoints back when its thread ends unasked, and not when it is stopped', async () => {
  const workerUrl = pathToFileURL(path.resolve('build/wal-checkpoint-worker.js'))
  let lost = 0
  // A database it cannot open: the thread fails at once.
  const failing = startWalCheckpointer(path.join(server.dir, 'no-such-dir', 'x.db'), {
    onLost: () => lost++,
    workerUrl,
  })
  await expect.poll(() => lost, { timeout: 5_000 }).toBe(1)
  await failing.stop()
  expect(lost).toBe(1)

  const working = startWalCheckpointer(path.join(server.dir, `own-${Date.now()}.db`), {
    onLost: () => lost++,
    workerUrl,
  })
  await working.stop()
  expect(lost).toBe(1)
})
