import Database from 'better-sqlite3'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { bundle, makeBoard } from '../support/board'
import { Client, signUp } from '../support/client'
import { LiveStream } from '../support/live'
import { startServer, type RunningServer } from '../support/server'

/**
 * CONTRACT §6's limits, kept over a restart: the caps, keep-alives, replay from the log after a
 * restart, pruning with reset, and SIGTERM with streams open. One server at a time, restarted
 * on the same data folder.
 */
const env = { LIVE_MAX_STREAMS: '24', LIVE_KEEPALIVE_SECONDS: '1' }
let server: RunningServer
const streams: LiveStream[] = []

beforeAll(async () => {
  server = await startServer(env)
})
afterAll(async () => {
  for (const s of streams) s.close()
  await server?.stop()
})

async function listen(path: string, options: Parameters<typeof LiveStream.open>[2] = {}) {
  const stream = await LiveStream.open(server.url, path, options)
  streams.push(stream)
  return stream
}

it('keeps at most 20 streams per session (the oldest closes) and answers 503 past the process cap', async () => {
  const owner = await signUp(server.url)
  const ids = await makeBoard(owner.client)
  const path = `/v1/projects/${ids.project}/events`
  const tabs: LiveStream[] = []
  for (let i = 0; i < 20; i++) {
    tabs.push(await listen(path, { client: owner.client }))
    await tabs[i].next('ready')
  }
  const twentyFirst = await listen(path, { client: owner.client })
  await twentyFirst.next('ready')
  await tabs[0].endedWithin(2000)
  expect(tabs.slice(1).every((t) => !t.closedByServer)).toBe(true)

  // Another session fills the process up to its cap (24 here), then is refused.
  const other = new Client(server.url)
  expect((await other.post('/v1/users/login', { email: owner.email, password: owner.password })).status).toBe(
    200,
  )
  const more: LiveStream[] = []
  for (let i = 0; i < 4; i++) {
    more.push(await listen(path, { client: other }))
    await more[i].next('ready')
  }
  const refused = await listen(path, { client: other })
  expect(refused.status).toBe(503)
  expect(refused.body).toMatchObject({ error: 'too_many_streams' })
  expect(Number(refused.headers?.get('retry-after'))).toBeGreaterThan(0)
  // A stream that ends frees its place.
  more[0].close()
  await expect
    .poll(async () => {
      const retry = await listen(path, { client: other })
      retry.close()
      return retry.status
    })
    .toBe(200)
  for (const s of [...tabs, twentyFirst, ...more]) s.close()
})

it('sends a keep-alive comment at least every 25 s (every second here)', async () => {
  const owner = await signUp(server.url)
  const ids = await makeBoard(owner.client)
  const stream = await listen(`/v1/projects/${ids.project}/events`, { client: owner.client })
  await stream.next('ready')
  await expect
    .poll(() => stream.comments.filter((c) => c.trim() === 'keep-alive').length, { timeout: 5000 })
    .toBeGreaterThanOrEqual(2)
  stream.close()
})

it('replays from the log after a restart, prunes old changes, and answers reset for what is gone', async () => {
  const owner = await signUp(server.url)
  const ids = await makeBoard(owner.client)
  const start = (await bundle(owner.client, ids.project)).version
  for (let i = 0; i < 1005; i += 15) {
    const batch = Array.from({ length: Math.min(15, 1005 - i) }, (_, j) => `T${i + j}`)
    await Promise.all(
      batch.map((title) => owner.client.post(`/v1/features/${ids.feature}/rename`, { title })),
    )
  }
  const last = start + 1005
  expect((await bundle(owner.client, ids.project)).version).toBe(last)

  // Every change a day and a half old: on start the server keeps only the last 1,000.
  await server.stop()
  const db = new Database(server.dbPath)
  db.prepare("update project_changes set at = '2000-01-01T00:00:00.000Z' where project_id = ?").run(
    ids.project,
  )
  db.close()
  server = await startServer(env, { dir: server.dir })
  const client = new Client(server.url)
  client.cookies = owner.client.cookies
  client.workspaceId = owner.workspaceId

  const replay = await listen(`/v1/projects/${ids.project}/events`, { client, lastEventId: String(last - 3) })
  expect((await replay.next()).event).toBe('ready')
  expect([(await replay.next()).id, (await replay.next()).id, (await replay.next()).id]).toEqual(
    [last - 2, last - 1, last].map(String),
  )
  const oldest = await listen(`/v1/projects/${ids.project}/events?since=${last - 1000}`, { client })
  expect((await oldest.next()).event).toBe('ready')
  expect((await oldest.next()).data.version).toBe(last - 999)
  const gone = await listen(`/v1/projects/${ids.project}/events?since=${last - 1001}`, { client })
  expect(await gone.next()).toMatchObject({ event: 'reset', data: { version: last } })
  expect(await gone.next()).toMatchObject({ event: 'ready', data: { version: last } })
  // Versions go on from where they were.
  await client.post(`/v1/features/${ids.feature}/rename`, { title: 'After restart' })
  expect((await gone.next('change')).data.version).toBe(last + 1)
  for (const s of [replay, oldest, gone]) s.close()
}, 120_000) // 1,005 writes and a restart: ~10 s on a quiet machine, three times that on a slow one

it('on SIGTERM ends the open streams and exits 0 within 10 s', async () => {
  const owner = await signUp(server.url)
  const ids = await makeBoard(owner.client)
  const open: LiveStream[] = []
  for (let i = 0; i < 5; i++) {
    open.push(await listen(`/v1/projects/${ids.project}/events`, { client: owner.client }))
    await open[i].next('ready')
  }
  const started = Date.now()
  const code = await server.stop('SIGTERM')
  expect(code).toBe(0)
  expect(Date.now() - started).toBeLessThan(10_000)
  for (const s of open) await s.endedWithin(1000)
})
