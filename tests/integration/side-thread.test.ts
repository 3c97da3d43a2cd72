import Database from 'better-sqlite3'
import fs from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { signUp } from '../support/client'
import { startMailbox } from '../support/mailbox'
import { startServer, type RunningServer } from '../support/server'
import { startSideThread } from '../../server/side-thread'

/**
 * The server's side thread (server/side-thread.ts). Checkpoints run there every second (issue
 * 34): no commit waits for the write-ahead log to be copied into the database file. SQLite's own
 * automatic checkpoint would leave a small write in the log until 1,000 pages had gathered.
 * E-mail leaves from there over kept SMTP connections (issue 49); the server's mail flows as a
 * whole are in email-flows, notifications and invitation tests.
 */
const workerUrl = pathToFileURL(path.resolve('build/side-thread-worker.js'))
let server: RunningServer
let mailbox: Awaited<ReturnType<typeof startMailbox>>
beforeAll(async () => {
  server = await startServer()
  mailbox = await startMailbox({ auth: { user: 'storymap', pass: 'right' } })
})
afterAll(async () => {
  await server?.stop()
  await mailbox?.close()
})

const message = (to: string, subject: string) => ({
  from: 'Storymap <storymap@example.com>',
  to,
  subject,
  text: `${subject}, in plain text`,
  html: `<p>${subject}</p>`,
})
const ownDatabase = () => path.join(server.dir, `own-${Date.now()}-${Math.random()}.db`)

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

it('hands checkpoints and e-mail back when its thread ends unasked, and not when it is stopped', async () => {
  let lost = 0
  // A database it cannot open: the thread fails at once.
  const failing = startSideThread({
    databaseFile: path.join(server.dir, 'no-such-dir', 'x.db'),
    smtpUrl: mailbox.url,
    onLost: () => lost++,
    workerUrl,
  })
  await expect.poll(() => lost, { timeout: 5_000 }).toBe(1)
  await expect(failing.sendMail!(message('x@example.com', 'Nowhere'))).rejects.toThrow(/side thread stopped/)
  await failing.stop()
  expect(lost).toBe(1)

  // `started` settles for a thread that ended at once too: a server awaiting it goes on.
  await failing.started
  const working = startSideThread({ databaseFile: ownDatabase(), onLost: () => lost++, workerUrl })
  expect(working.sendMail).toBeUndefined() // no SMTP_URL: messages only go to the log
  await working.started
  await working.stop()
  expect(lost).toBe(1)
})

it('delivers every message, over fewer connections than messages', async () => {
  const thread = startSideThread({
    databaseFile: ownDatabase(),
    smtpUrl: `smtp://storymap:right@127.0.0.1:${mailbox.port}`,
    onLost: () => expect.unreachable('the thread was asked to stop'),
    workerUrl,
  })
  const before = mailbox.connections()
  const sent = mailbox.mails.length
  await Promise.all(
    Array.from({ length: 12 }, (_, i) => thread.sendMail!(message(`reader-${i}@example.com`, `Note ${i}`))),
  )
  await thread.sendMail!(message('reader-last@example.com', 'Last note'))
  expect(
    mailbox.mails
      .slice(sent)
      .map((m) => m.subject)
      .sort(),
  ).toEqual([...Array.from({ length: 12 }, (_, i) => `Note ${i}`), 'Last note'].sort())
  expect((await mailbox.waitFor('reader-3@example.com', sent)).text).toContain('Note 3, in plain text')
  expect(mailbox.connections() - before).toBeLessThan(13)
  await thread.stop()
})

it('reports what the SMTP server refused, and a message on its way when stopped still goes', async () => {
  const refused = startSideThread({
    databaseFile: ownDatabase(),
    smtpUrl: `smtp://storymap:wrong@127.0.0.1:${mailbox.port}`,
    onLost: () => undefined,
    workerUrl,
  })
  await expect(refused.sendMail!(message('nobody@example.com', 'Refused'))).rejects.toThrow(
    /Invalid username or password/,
  )
  await refused.stop()

  const thread = startSideThread({
    databaseFile: ownDatabase(),
    smtpUrl: `smtp://storymap:right@127.0.0.1:${mailbox.port}`,
    onLost: () => undefined,
    workerUrl,
  })
  const sent = mailbox.mails.length
  const onItsWay = thread.sendMail!(message('late-reader@example.com', 'Sent at shutdown'))
  await thread.stop()
  await onItsWay
  expect(mailbox.mails.slice(sent).map((m) => m.subject)).toEqual(['Sent at shutdown'])
  await expect(thread.sendMail!(message('after@example.com', 'After'))).rejects.toThrow(/side thread stopped/)
})
