import { sign } from '@octokit/webhooks-methods'
import Database from 'better-sqlite3'
import { drizzle } from 'drizzle-orm/better-sqlite3'
import { migrate } from 'drizzle-orm/better-sqlite3/migrator'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { Webhook } from 'standardwebhooks'
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import { makeBoard, uuid } from '../support/board'
import { Client, signUp } from '../support/client'
import { FakeGithub } from '../support/fake-github'
import { eventually, link } from '../support/github'
import { startReceiver } from '../support/receiver'
import { startServer, type RunningServer } from '../support/server'

/**
 * The files a server keeps (issue 43): its data folder and database readable by it alone, and the
 * webhook signing secrets sealed in the database, also those stored before they were.
 */
const root = fileURLToPath(new URL('../..', import.meta.url))
const REPO = 'acme/shop'
const OPEN = { WEBHOOKS_ALLOW_HTTP: 'true', WEBHOOKS_ALLOW_PRIVATE: 'true' }
let github: FakeGithub
const receivers: Awaited<ReturnType<typeof startReceiver>>[] = []
let umask: number
const running: RunningServer[] = []
const folders: string[] = []

beforeAll(async () => {
  // As most hosts have it (files 0644, folders 0755): the server must not depend on the umask it is given.
  umask = process.umask(0o022)
  github = await new FakeGithub().start()
  github.addRepo(REPO)
  github.addToken('tok', [REPO])
})
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.stop()))
})
afterAll(async () => {
  process.umask(umask)
  await github?.stop()
  await Promise.all(receivers.map((r) => r.close()))
  for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true })
})

/** A data folder the server has yet to create. */
function newDataFolder() {
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), 'storymap-files-'))
  folders.push(parent)
  return path.join(parent, 'data')
}
async function start(dir: string, env: Record<string, string> = {}) {
  const server = await startServer(
    { ...OPEN, GITHUB_API_URL: github.url, GITHUB_POLL_SECONDS: '3600', ...env },
    { dir },
  )
  running.push(server)
  return server
}
async function receiver() {
  const r = await startReceiver()
  receivers.push(r)
  return r
}
/** The messages of a type the receiver got, once it has `count` of them. */
const messagesOf = (hook: Awaited<ReturnType<typeof startReceiver>>, type: string, count = 1) =>
  eventually(
    () => hook.received.filter((r) => r.json?.type === type),
    (found) => found.length >= count,
  )
const modeOf = (file: string) => (fs.statSync(file).mode & 0o777).toString(8)
/** Whether the text is anywhere in the database's files, free space and log included. */
const inFiles = (dbPath: string, text: string) =>
  ['', '-wal'].some(
    (suffix) => fs.existsSync(dbPath + suffix) && fs.readFileSync(dbPath + suffix).includes(text),
  )
function storedSecrets(dbPath: string) {
  const db = new Database(dbPath, { readonly: true })
  try {
    return [
      ...db.prepare('select secret_cipher as stored from webhooks').all(),
      ...db.prepare('select webhook_secret_cipher as stored from github_links').all(),
    ].map((row) => (row as { stored: string }).stored)
  } finally {
    db.close()
  }
}
async function ping(client: Client, webhookId: string) {
  const res = await client.post(`/v1/webhooks/${webhookId}/test`)
  expect(res.status, res.text).toBe(200)
  return res.json.delivery as { status: number | null; error: string | null }
}
async function deliverFromGithub(server: RunningServer, projectId: string, secret: string) {
  const body = JSON.stringify({ zen: 'Keep it simple.' })
  const headers = {
    'Content-Type': 'application/json',
    'X-GitHub-Event': 'ping',
    'X-Hub-Signature-256': await sign(secret, body),
  }
  return (await fetch(`${server.url}/v1/github/webhook/${projectId}`, { method: 'POST', headers, body }))
    .status
}

it('creates the data folder 0700 and the database, its -wal and -shm and the session secret 0600', async () => {
  const dir = newDataFolder()
  const server = await start(dir)
  await makeBoard((await signUp(server.url)).client)
  expect(modeOf(dir)).toBe('700')
  expect(fs.readdirSync(dir).sort()).toEqual([
    'session-secret',
    'storymap.db',
    'storymap.db-shm',
    'storymap.db-wal',
  ])
  for (const file of fs.readdirSync(dir)) expect([file, modeOf(path.join(dir, file))]).toEqual([file, '600'])
})

it('keeps webhook signing secrets sealed; deliveries are signed with them; another SESSION_SECRET says why it cannot sign', async () => {
  const dir = newDataFolder()
  const server = await start(dir, { SESSION_SECRET: 'first-secret-of-this-server' })
  const owner = await signUp(server.url)
  const ids = await makeBoard(owner.client)
  const hook = await receiver()
  const registered = await owner.client.post('/v1/webhooks', {
    url: hook.url,
    events: ['comment'],
    projectId: null,
  })
  expect(registered.status, registered.text).toBe(201)
  const { webhook, secret } = registered.json as { webhook: { id: string }; secret: string }
  const { webhookSecret } = await link(owner.client, ids.project, REPO, 'tok')

  expect(await ping(owner.client, webhook.id)).toMatchObject({ status: 200, error: null })
  const [delivery] = await messagesOf(hook, 'ping')
  expect(new Webhook(secret).verify(delivery.body, delivery.headers as Record<string, string>)).toMatchObject(
    { type: 'ping' },
  )
  expect(await deliverFromGithub(server, ids.project, webhookSecret)).toBe(200)
  expect(storedSecrets(server.dbPath)).toEqual([
    expect.stringMatching(/^v1\./),
    expect.stringMatching(/^v1\./),
  ])
  for (const clear of [secret, secret.slice('whsec_'.length), webhookSecret])
    expect(inFiles(server.dbPath, clear)).toBe(false)

  // Relinked, the GitHub webhook secret is the same (CONTRACT §13).
  expect((await link(owner.client, ids.project, REPO, 'tok')).webhookSecret).toBe(webhookSecret)

  expect(await server.stop()).toBe(0)
  const moved = await start(dir, { SESSION_SECRET: 'another-secret-after-a-move' })
  const again = new Client(moved.url, owner.workspaceId)
  expect((await again.post('/v1/users/login', { email: owner.email, password: owner.password })).status).toBe(
    200,
  )
  expect(await ping(again, webhook.id)).toEqual(
    expect.objectContaining({
      status: null,
      error:
        'The signing secret cannot be read: SESSION_SECRET changed since this webhook was added. Delete the webhook and add it again.',
    }),
  )
  expect(hook.received).toHaveLength(1)
  expect(await deliverFromGithub(moved, ids.project, webhookSecret)).toBe(401)
  // Linked again, a new GitHub webhook secret works.
  const relinked = await link(again, ids.project, REPO, 'tok')
  expect(relinked.webhookSecret).not.toBe(webhookSecret)
  expect(await deliverFromGithub(moved, ids.project, relinked.webhookSecret)).toBe(200)
})

/** A database as migrations 0000–0012 leave it (before 0013 sealed the secrets), with the rows of `from`. */
function databaseBefore0013(file: string, from: string, clear: Record<string, Record<string, string>>) {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'storymap-drizzle-'))
  folders.push(folder)
  fs.cpSync(path.join(root, 'drizzle'), folder, { recursive: true })
  const journalFile = path.join(folder, 'meta', '_journal.json')
  const journal = JSON.parse(fs.readFileSync(journalFile, 'utf8')) as { entries: { idx: number }[] }
  journal.entries = journal.entries.filter((entry) => entry.idx < 13)
  fs.writeFileSync(journalFile, JSON.stringify(journal))
  const db = new Database(file)
  try {
    migrate(drizzle(db), { migrationsFolder: folder })
    db.pragma('foreign_keys = OFF')
    db.prepare('attach database ? as later').run(from)
    const tables = db
      .prepare(
        "select name from main.sqlite_master where type = 'table' and name not like 'sqlite_%' and name != '__drizzle_migrations'",
      )
      .all() as { name: string }[]
    for (const { name } of tables) {
      const later = new Set(
        db
          .prepare(`select name from pragma_table_info(?, 'later')`)
          .all(name)
          .map((c) => (c as { name: string }).name),
      )
      // A table a later migration dropped (github_issues, 0016: its rows went to tracker_issues) stays empty.
      if (later.size === 0) continue
      const columns = (
        db.prepare(`select name from pragma_table_info(?, 'main')`).all(name) as { name: string }[]
      ).map((c) => c.name)
      const kept = columns.filter((c) => later.has(c))
      const given = Object.entries(clear[name] ?? {})
      expect(columns.filter((c) => !later.has(c)).sort(), name).toEqual(
        given.map(([column]) => column).sort(),
      )
      const names = [...kept, ...given.map(([column]) => column)].map((c) => `"${c}"`).join(', ')
      const values = [...kept.map((c) => `"${c}"`), ...given.map(() => '?')].join(', ')
      db.prepare(`insert into main."${name}" (${names}) select ${values} from later."${name}"`).run(
        ...given.map(([, value]) => value),
      )
    }
    db.exec('detach database later')
  } finally {
    db.close()
  }
}

it('seals the secrets a database stored in clear before migration 0013, and makes its files 0600', async () => {
  const dir = newDataFolder()
  const first = await start(dir)
  const owner = await signUp(first.url)
  const ids = await makeBoard(owner.client)
  const hook = await receiver()
  const registered = await owner.client.post('/v1/webhooks', {
    url: hook.url,
    events: ['change'],
    projectId: null,
  })
  expect(registered.status, registered.text).toBe(201)
  const { webhook, secret } = registered.json as { webhook: { id: string }; secret: string }
  const { webhookSecret } = await link(owner.client, ids.project, REPO, 'tok')
  expect(await first.stop()).toBe(0)

  // The same rows under the schema of migrations 0000–0012: the secrets in clear, the file 0644.
  const before = path.join(dir, 'before.db')
  databaseBefore0013(before, first.dbPath, {
    webhooks: { secret },
    github_links: { webhook_secret: webhookSecret },
  })
  for (const suffix of ['', '-wal', '-shm']) fs.rmSync(first.dbPath + suffix, { force: true })
  fs.renameSync(before, first.dbPath)
  fs.chmodSync(first.dbPath, 0o644)
  expect(inFiles(first.dbPath, secret)).toBe(true)

  const server = await start(dir)
  for (const suffix of ['', '-wal', '-shm'])
    expect([suffix, modeOf(first.dbPath + suffix)]).toEqual([suffix, '600'])
  expect(storedSecrets(server.dbPath)).toEqual([
    expect.stringMatching(/^v1\./),
    expect.stringMatching(/^v1\./),
  ])
  for (const clear of [secret, secret.slice('whsec_'.length), webhookSecret])
    expect(inFiles(server.dbPath, clear)).toBe(false)

  // Signed with the secrets the owners were given: a ping, a change through the outbox, GitHub's deliveries.
  const client = new Client(server.url, owner.workspaceId)
  client.cookies = new Map(owner.client.cookies)
  expect(await ping(client, webhook.id)).toMatchObject({ status: 200, error: null })
  expect((await client.post(`/v1/features/${ids.feature}/rename`, { title: 'Sealed' })).status).toBe(200)
  const [pinged] = await messagesOf(hook, 'ping')
  const renamed = await eventually(
    () => hook.received.find((r) => r.body.includes('"Sealed"')),
    (found) => found !== undefined,
  )
  const verifier = new Webhook(secret)
  expect(verifier.verify(pinged.body, pinged.headers as Record<string, string>)).toMatchObject({
    type: 'ping',
  })
  expect(verifier.verify(renamed!.body, renamed!.headers as Record<string, string>)).toMatchObject({
    type: 'change',
  })
  expect(await deliverFromGithub(server, ids.project, webhookSecret)).toBe(200)
  expect(await deliverFromGithub(server, ids.project, uuid())).toBe(401)
})
