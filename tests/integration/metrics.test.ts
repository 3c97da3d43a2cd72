import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addMember, makeBoard, uuid } from '../support/board'
import { Client, signUp } from '../support/client'
import { LiveStream } from '../support/live'
import { startReceiver } from '../support/receiver'
import { startServer, type RunningServer } from '../support/server'

/** GET /metrics (CONTRACT §5, issue "Capacity"): on only with METRICS_TOKEN, behind its bearer token. */
const TOKEN = 'metrics-token-for-tests-0123456789'
let plain: RunningServer
let server: RunningServer
let receiver: Awaited<ReturnType<typeof startReceiver>>

beforeAll(async () => {
  ;[plain, server, receiver] = await Promise.all([
    startServer(),
    startServer({ METRICS_TOKEN: TOKEN, WEBHOOKS_ALLOW_HTTP: 'true', WEBHOOKS_ALLOW_PRIVATE: 'true' }),
    startReceiver(),
  ])
})
afterAll(async () => {
  await Promise.all([plain?.stop(), server?.stop(), receiver?.close()])
})

type Sample = { name: string; labels: Record<string, string>; value: number }

/**
 * The Prometheus text format (0.0.4), read strictly: every line is a `# HELP`/`# TYPE` comment or
 * one sample `name{label="value",...} number`; anything else fails the test.
 */
function parseExposition(text: string): { samples: Sample[]; types: Map<string, string> } {
  const samples: Sample[] = []
  const types = new Map<string, string>()
  for (const line of text.split('\n')) {
    if (line === '') continue
    const type = /^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary|untyped)$/.exec(line)
    if (type) {
      types.set(type[1], type[2])
      continue
    }
    if (/^# HELP [a-zA-Z_:][a-zA-Z0-9_:]* .*$/.test(line)) continue
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line)
    if (!sample) throw new Error(`not a Prometheus text line: ${JSON.stringify(line)}`)
    const labels: Record<string, string> = {}
    const body = sample[2] ?? ''
    const pair = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(,|$)/y
    while (pair.lastIndex < body.length) {
      const m = pair.exec(body)
      if (!m) throw new Error(`bad labels in ${JSON.stringify(line)}`)
      labels[m[1]] = m[2]
    }
    // Special values as Prometheus reads them (Go's ParseFloat: any case); prom-client writes `Nan`.
    const special: Record<string, number> = { '+inf': Infinity, '-inf': -Infinity, nan: NaN }
    const value = special[sample[3].toLowerCase()] ?? Number(sample[3])
    if (Number.isNaN(value) && sample[3].toLowerCase() !== 'nan')
      throw new Error(`bad value in ${JSON.stringify(line)}`)
    samples.push({ name: sample[1], labels, value })
  }
  return { samples, types }
}

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` })

async function scrape() {
  const res = await fetch(`${server.url}/metrics`, { headers: bearer(TOKEN) })
  expect(res.status).toBe(200)
  const text = await res.text()
  return { text, ...parseExposition(text) }
}

const valueOf = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value

async function gauge(name: string, labels: Record<string, string> = {}) {
  return valueOf((await scrape()).samples, name, labels)
}

/** Scrapes until `name` reads `expected` (gauges follow the server's state, a moment behind the client). */
async function gaugeBecomes(name: string, labels: Record<string, string>, expected: number) {
  const deadline = Date.now() + 10_000
  let last: number | undefined
  while (Date.now() < deadline) {
    last = await gauge(name, labels)
    if (last === expected) return
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`${name}${JSON.stringify(labels)} stayed ${last}, expected ${expected}`)
}

describe('without METRICS_TOKEN', () => {
  it('has no metrics endpoint: /metrics is the app path it was, like any workspace that does not exist', async () => {
    const user = await signUp(plain.url)
    for (const client of [new Client(plain.url), user.client]) {
      const nobody = await client.get('/zzznosuchworkspace')
      expect(nobody.status).not.toBe(200)
      for (const headers of [{}, bearer(TOKEN)]) {
        const res = await client.get('/metrics', headers)
        expect(res.status).toBe(nobody.status)
        expect(res.headers.get('content-type')).toBe(nobody.headers.get('content-type'))
        expect(res.headers.get('location')).toBe(
          nobody.headers.get('location')?.replace('zzznosuchworkspace', 'metrics') ?? null,
        )
        expect(res.text).not.toContain('# TYPE')
      }
    }
  })
})

describe('with METRICS_TOKEN', () => {
  it('refuses a scrape without the bearer token, with another, or with another scheme (401)', async () => {
    for (const headers of [
      {},
      bearer('wrong-token'),
      bearer(TOKEN.slice(0, -1)),
      bearer(`${TOKEN}x`),
      { Authorization: `Basic ${TOKEN}` },
      { Authorization: TOKEN },
    ]) {
      const res = await fetch(`${server.url}/metrics`, { headers })
      expect(res.status, JSON.stringify(headers)).toBe(401)
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/)
      expect(await res.text()).not.toContain('# TYPE')
    }
    // However the router would spell the path, it is the endpoint's, never the app's.
    for (const path of ['/METRICS', '/metrics/', '//metrics', '/metrics.data'])
      expect((await fetch(`${server.url}${path}`)).status, path).toBe(401)
  })

  it('answers the Prometheus text format with the default and Storymap metrics', async () => {
    const res = await fetch(`${server.url}/metrics`, { headers: bearer(TOKEN) })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4(;|$)/)
    expect(res.headers.get('cache-control')).toBe('no-store')
    const { samples, types } = parseExposition(await res.text())
    expect(valueOf(samples, 'process_resident_memory_bytes')).toBeGreaterThan(10_000_000)
    expect(valueOf(samples, 'nodejs_eventloop_lag_p99_seconds')).toBeGreaterThanOrEqual(0)
    expect(valueOf(samples, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0)
    expect(types.get('storymap_http_request_duration_seconds')).toBe('histogram')
    expect(types.get('storymap_sqlite_write_seconds')).toBe('histogram')
    expect(types.get('storymap_sse_streams')).toBe('gauge')
    expect(types.get('storymap_outbox_pending')).toBe('gauge')
    for (const outbox of ['webhooks', 'email', 'github'])
      expect(valueOf(samples, 'storymap_outbox_pending', { outbox }), outbox).toBeGreaterThanOrEqual(0)
    // HEAD: the same headers, no body.
    const head = await fetch(`${server.url}/metrics`, { method: 'HEAD', headers: bearer(TOKEN) })
    expect(head.status).toBe(200)
    expect(await head.text()).toBe('')
  })

  it('labels request durations by route pattern, never by a path with ids', async () => {
    const owner = await signUp(server.url)
    const ids = await makeBoard(owner.client)
    const missing = uuid()
    expect((await owner.client.get(`/v1/projects/${ids.project}`)).status).toBe(200)
    expect((await owner.client.get(`/v1/projects/${missing}`)).status).toBe(404)
    expect((await owner.client.get(`/${owner.workspaceName}/projects/${ids.project}`)).status).toBe(200)
    expect((await owner.client.post(`/v1/features/${ids.feature}/rename`, { title: 'Renamed' })).status).toBe(
      200,
    )
    expect((await owner.client.get(`/no/such/page/${missing}`)).status).toBe(404)
    expect((await owner.client.request('PROPFIND', `/v1/projects/${missing}`)).status).toBe(405)

    const { text, samples } = await scrape()
    const count = (labels: Record<string, string>) =>
      valueOf(samples, 'storymap_http_request_duration_seconds_count', labels)
    expect(count({ route: '/v1/projects/:id', method: 'GET', status: '200' })).toBeGreaterThanOrEqual(1)
    expect(count({ route: '/v1/projects/:id', method: 'GET', status: '404' })).toBeGreaterThanOrEqual(1)
    expect(
      count({ route: '/:workspace/projects/:projectId', method: 'GET', status: '200' }),
    ).toBeGreaterThanOrEqual(1)
    // The card operations share a route file; the label names the kind and the operation.
    expect(count({ route: '/v1/features/:id/rename', method: 'POST', status: '200' })).toBeGreaterThanOrEqual(
      1,
    )
    expect(count({ route: '/v1/:kind/:id/:op', method: 'POST', status: '200' })).toBeUndefined()
    expect(count({ route: '/*', method: 'GET', status: '404' })).toBeGreaterThanOrEqual(1)
    expect(count({ route: 'unmatched', method: 'other', status: '405' })).toBeGreaterThanOrEqual(1)
    expect(count({ route: '/v1/users/signup', method: 'POST', status: '200' })).toBeGreaterThanOrEqual(1)
    // Writes through the one door are timed, and so is every other write (the sign-up's).
    expect(
      valueOf(samples, 'storymap_sqlite_write_seconds_count', { kind: 'change' }),
    ).toBeGreaterThanOrEqual(8)
    expect(valueOf(samples, 'storymap_sqlite_write_seconds_count', { kind: 'other' })).toBeGreaterThanOrEqual(
      1,
    )
    // No id, workspace name or raw path anywhere in the output.
    for (const raw of [
      ids.project,
      ids.feature,
      missing,
      owner.workspaceId,
      owner.workspaceName,
      '/no/such/page',
    ])
      expect(text).not.toContain(raw)
    const routes = new Set(
      samples
        .filter((s) => s.name === 'storymap_http_request_duration_seconds_count')
        .map((s) => s.labels.route),
    )
    for (const route of routes) expect(route, route).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-|\/ws[0-9a-z]{6,}/)
  })

  it('times every write, outside the door too, and no read', async () => {
    const owner = await signUp(server.url)
    const ids = await makeBoard(owner.client)
    const writes = async () => {
      const { samples } = await scrape()
      const count = (kind: string) => valueOf(samples, 'storymap_sqlite_write_seconds_count', { kind }) ?? 0
      return { change: count('change'), other: count('other') }
    }
    const before = await writes()
    // Reads of the map, each in a read transaction: none counted (the background workers may write meanwhile, far fewer).
    for (let i = 0; i < 20; i++)
      expect((await owner.client.get(`/v1/projects/${ids.project}`)).status).toBe(200)
    const afterReads = await writes()
    expect(afterReads.change).toBe(before.change)
    expect(afterReads.other - before.other).toBeLessThan(20)
    // Invitations are written outside the door.
    for (let i = 0; i < 5; i++)
      expect(
        (await owner.client.post('/v1/invites', { email: `invitee-${uuid()}@example.com`, level: 'EDITOR' }))
          .status,
      ).toBe(200)
    const afterInvites = await writes()
    expect(afterInvites.other - afterReads.other).toBeGreaterThanOrEqual(5)
    expect(afterInvites.change).toBe(before.change)
  })

  it('counts open live streams, up while one is open and down after it closes', async () => {
    const owner = await signUp(server.url)
    const ids = await makeBoard(owner.client)
    const before = (await gauge('storymap_sse_streams')) ?? -1
    const stream = await LiveStream.open(server.url, `/v1/projects/${ids.project}/events`, {
      client: owner.client,
    })
    expect(stream.status).toBe(200)
    await stream.next('ready')
    await gaugeBecomes('storymap_sse_streams', {}, before + 1)
    stream.close()
    await gaugeBecomes('storymap_sse_streams', {}, before)
  })

  it('counts waiting webhook deliveries, notification e-mails and GitHub pushes', async () => {
    const owner = await signUp(server.url)
    const ids = await makeBoard(owner.client)
    // A webhook whose endpoint fails: its delivery stays pending, to be retried.
    receiver.answer(() => 500)
    const webhooksBefore = (await gauge('storymap_outbox_pending', { outbox: 'webhooks' }))!
    const hook = await owner.client.post('/v1/webhooks', {
      url: receiver.url,
      events: ['change'],
      projectId: null,
    })
    expect(hook.status, hook.text).toBe(201)
    expect((await owner.client.post(`/v1/features/${ids.feature}/rename`, { title: 'Renamed' })).status).toBe(
      200,
    )
    await receiver.waitFor(1)
    expect(await gauge('storymap_outbox_pending', { outbox: 'webhooks' })).toBe(webhooksBefore + 1)

    // A mention e-mail goes at once; a second one within the window (10 minutes) waits in the outbox.
    const other = await signUp(server.url)
    const otherMember = addMember(server.dbPath, owner.workspaceId, other.account.id, 'VIEWER')
    const mention = () =>
      owner.client.post(`/v1/featurecomments/${uuid()}`, {
        featureId: ids.feature,
        post: `@[member:${otherMember}] look`,
      })
    expect((await mention()).status).toBe(200)
    await gaugeBecomes('storymap_outbox_pending', { outbox: 'email' }, 0)
    expect((await mention()).status).toBe(200)
    expect(await gauge('storymap_outbox_pending', { outbox: 'email' })).toBe(1)

    // The GitHub outbox (issue "GitHub Issues sync") counts once its table exists, as its migration makes it.
    const db = new Database(server.dbPath)
    try {
      db.pragma('busy_timeout = 5000')
      db.exec(`create table if not exists github_outbox (
        seq integer primary key autoincrement not null, project_id text not null references projects(id) on delete cascade,
        feature_id text not null, fields text not null, created_at text not null, attempt integer default 0 not null, next_at text not null)`)
      const githubBefore = (await gauge('storymap_outbox_pending', { outbox: 'github' }))!
      const at = new Date(Date.now() + 3_600_000).toISOString()
      db.prepare(
        'insert into github_outbox (project_id, feature_id, fields, created_at, next_at) values (?, ?, ?, ?, ?)',
      ).run(ids.project, ids.feature, '["title"]', at, at)
      expect(await gauge('storymap_outbox_pending', { outbox: 'github' })).toBe(githubBefore + 1)
    } finally {
      db.close()
    }
  })

  it('refuses "metrics" as a workspace name, at sign-up and for a new workspace (workspace_taken)', async () => {
    const signup = await new Client(server.url).post('/v1/users/signup', {
      workspaceName: 'metrics',
      name: 'Mia',
      email: `mia${Date.now()}@example.com`,
      password: 'correct-horse',
    })
    expect(signup.status).toBe(409)
    expect(signup.json.error).toBe('workspace_taken')
    const user = await signUp(server.url)
    const created = await user.client.post('/v1/account/workspaces', { name: 'metrics' })
    expect(created.status).toBe(409)
    expect(created.json.error).toBe('workspace_taken')
  })
})
