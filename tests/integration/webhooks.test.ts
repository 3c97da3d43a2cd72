import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addMember, makeBoard, uuid } from '../support/board'
import { Client, signUp } from '../support/client'
import { startMailbox } from '../support/mailbox'
import { startReceiver } from '../support/receiver'
import { startServer, type RunningServer } from '../support/server'

/** Webhooks (CONTRACT §10) against a real receiver on loopback, both safety settings on. */
const OPEN = { WEBHOOKS_ALLOW_HTTP: 'true', WEBHOOKS_ALLOW_PRIVATE: 'true', WEBHOOKS_RETRY_SCALE: '0.001' }
let server: RunningServer
const receivers: Awaited<ReturnType<typeof startReceiver>>[] = []

beforeAll(async () => {
  server = await startServer(OPEN)
})
afterAll(async () => {
  await server?.stop()
  await Promise.all(receivers.map((r) => r.close()))
})

async function receiver() {
  const r = await startReceiver()
  receivers.push(r)
  return r
}

async function register(client: Client, body: Record<string, unknown>) {
  const res = await client.post('/v1/webhooks', {
    events: ['change', 'comment', 'project'],
    projectId: null,
    ...body,
  })
  expect(res.status, res.text).toBe(201)
  return res.json as {
    webhook: { id: string; url: string; events: string[]; disabledAt: string | null }
    secret: string
  }
}

const rename = (client: Client, id: string, title: string) =>
  client.post(`/v1/features/${id}/rename`, { title })

describe('registering endpoints', () => {
  it('shows the secret once; the list and the log never show it', async () => {
    const owner = await signUp(server.url)
    const hook = await receiver()
    const { webhook, secret } = await register(owner.client, { url: hook.url, events: ['comment', 'change'] })
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/)
    expect(webhook).toMatchObject({
      url: hook.url,
      projectId: null,
      events: ['change', 'comment'],
      disabledAt: null,
    })
    const list = await owner.client.get('/v1/webhooks')
    expect(list.json.webhooks).toEqual([webhook])
    expect(list.text).not.toContain(secret)
    expect((await owner.client.get(`/v1/webhooks/${webhook.id}/deliveries`)).json).toEqual({ deliveries: [] })
  })

  it('lets only owners and admins manage them; a token works, a read token only reads', async () => {
    const owner = await signUp(server.url)
    const hook = await receiver()
    const { webhook } = await register(owner.client, { url: hook.url })
    for (const level of ['EDITOR', 'VIEWER'] as const) {
      const other = await signUp(server.url)
      addMember(server.dbPath, owner.workspaceId, other.account.id, level)
      other.client.workspaceId = owner.workspaceId
      expect((await other.client.get('/v1/webhooks')).status).toBe(403)
      expect((await other.client.post('/v1/webhooks', { url: hook.url, events: ['change'] })).status).toBe(
        403,
      )
      expect((await other.client.delete(`/v1/webhooks/${webhook.id}`)).status).toBe(403)
      expect((await other.client.get(`/v1/webhooks/${webhook.id}/deliveries`)).status).toBe(403)
      expect((await other.client.post(`/v1/webhooks/${webhook.id}/test`)).status).toBe(403)
    }
    const admin = await signUp(server.url)
    addMember(server.dbPath, owner.workspaceId, admin.account.id, 'ADMIN')
    admin.client.workspaceId = owner.workspaceId
    expect((await admin.client.get('/v1/webhooks')).json.webhooks).toHaveLength(1)

    const token = async (scope: string) =>
      (
        await owner.client.post('/v1/account/tokens', {
          name: `t ${scope}`,
          workspaceId: owner.workspaceId,
          scope,
        })
      ).json.secret as string
    // A script: no cookie, no Workspace header (the token names the workspace).
    const script = new Client(server.url)
    const read = await token('read')
    const write = await token('write')
    const auth = (secret: string) => ({ Authorization: `Bearer ${secret}` })
    expect((await script.get('/v1/webhooks', auth(read))).status).toBe(200)
    expect(
      await script.post('/v1/webhooks', { url: hook.url, events: ['change'] }, auth(read)),
    ).toMatchObject({ status: 403, json: { error: 'token_read_only' } })
    const made = await script.post('/v1/webhooks', { url: hook.url, events: ['change'] }, auth(write))
    expect(made.status, made.text).toBe(201)
    expect((await script.delete(`/v1/webhooks/${made.json.webhook.id}`, auth(write))).status).toBe(200)
    expect((await owner.client.delete(`/v1/webhooks/${made.json.webhook.id}`)).status).toBe(404)
  })

  it('refuses bad bodies and unknown projects', async () => {
    const owner = await signUp(server.url)
    const hook = await receiver()
    expect(await owner.client.post('/v1/webhooks', { url: 'not a url', events: ['change'] })).toMatchObject({
      status: 400,
      json: { error: 'url_invalid' },
    })
    expect(
      await owner.client.post('/v1/webhooks', { url: 'ftp://example.com/x', events: ['change'] }),
    ).toMatchObject({ status: 400, json: { error: 'url_invalid' } })
    expect(await owner.client.post('/v1/webhooks', { url: hook.url, events: [] })).toMatchObject({
      status: 400,
      json: { error: 'events_invalid' },
    })
    expect(
      await owner.client.post('/v1/webhooks', { url: hook.url, events: ['change'], projectId: uuid() }),
    ).toMatchObject({ status: 404 })
  })
})

describe('refused URLs without the settings', () => {
  let strict: RunningServer
  beforeAll(async () => {
    strict = await startServer()
  })
  afterAll(async () => {
    await strict?.stop()
  })

  it('wants https and a public address', async () => {
    const owner = await signUp(strict.url)
    const post = (url: string) => owner.client.post('/v1/webhooks', { url, events: ['change'] })
    expect(await post('http://example.com/hook')).toMatchObject({
      status: 400,
      json: { error: 'url_not_allowed' },
    })
    expect(await post('https://127.0.0.1/hook')).toMatchObject({
      status: 400,
      json: { error: 'url_not_allowed' },
    })
    expect(await post('https://[::1]/hook')).toMatchObject({
      status: 400,
      json: { error: 'url_not_allowed' },
    })
    expect(await post('https://169.254.169.254/latest')).toMatchObject({
      status: 400,
      json: { error: 'url_not_allowed' },
    })
    expect(await post('https://localhost/hook')).toMatchObject({
      status: 400,
      json: { error: 'url_not_allowed' },
    })
    expect(await post('not a url')).toMatchObject({ status: 400, json: { error: 'url_invalid' } })
    expect((await owner.client.get('/v1/webhooks')).json.webhooks).toEqual([])
  })
})

describe('deliveries', () => {
  it('signs each change as Standard Webhooks says, with the §6 event, type and summary', async () => {
    const owner = await signUp(server.url, { name: 'Ana' })
    const ids = await makeBoard(owner.client)
    const hook = await receiver()
    const { secret } = await register(owner.client, { url: hook.url })
    expect((await rename(owner.client, ids.feature, 'Pay by card')).status).toBe(200)
    expect(
      (await owner.client.post(`/v1/featurecomments/${uuid()}`, { featureId: ids.feature, post: 'Nice' }))
        .status,
    ).toBe(200)
    expect((await owner.client.post(`/v1/projects/${ids.project}/rename`, { title: 'Shop' })).status).toBe(
      200,
    )
    const [change, comment, project] = await hook.waitFor(3)
    const verifier = new Webhook(secret)
    for (const r of [change, comment, project]) {
      expect(verifier.verify(r.body, r.headers as Record<string, string>)).toEqual(r.json)
      expect(r.headers['user-agent']).toMatch(/^Storymap-Webhooks\/\d+\.\d+\.\d+$/)
      expect(r.headers['content-type']).toBe('application/json')
    }
    expect(change.json).toMatchObject({
      type: 'change',
      workspaceId: owner.workspaceId,
      projectId: ids.project,
      by: { name: 'Ana' },
      summary: expect.stringContaining('Pay by card'),
      changes: [{ op: 'upsert', kind: 'feature', entity: { id: ids.feature, title: 'Pay by card' } }],
    })
    expect(comment.json.type).toBe('comment')
    expect(project.json).toMatchObject({
      type: 'project',
      changes: [{ kind: 'project', entity: { title: 'Shop' } }],
    })
    expect([change, comment, project].map((r) => r.json.version)).toEqual([
      change.json.version,
      change.json.version + 1,
      change.json.version + 2,
    ])
    expect(() => verifier.verify(change.body + ' ', change.headers as Record<string, string>)).toThrow()
  })

  it('sends undo, trash restore and a project delete from the same log', async () => {
    const owner = await signUp(server.url)
    const ids = await makeBoard(owner.client)
    const hook = await receiver()
    await register(owner.client, { url: hook.url })
    await rename(owner.client, ids.feature, 'Renamed')
    expect((await owner.client.post(`/v1/projects/${ids.project}/undo`)).status).toBe(200)
    expect((await owner.client.delete(`/v1/features/${ids.feature}`)).status).toBe(200)
    const trash = (await owner.client.get(`/v1/projects/${ids.project}/trash`)).json.items
    expect((await owner.client.post(`/v1/trash/${trash[0].id}/restore`)).status).toBe(200)
    expect((await owner.client.delete(`/v1/projects/${ids.project}`)).status).toBe(200)
    const got = await hook.waitFor(5)
    expect(got.map((r) => r.json.type)).toEqual(['change', 'change', 'change', 'change', 'project'])
    expect(got[1].json.changes[0].entity.title).toBe('Feature')
    expect(
      got[3].json.changes.some(
        (c: { op: string; id?: string; entity?: { id: string } }) => c.entity?.id === ids.feature,
      ),
    ).toBe(true)
    expect(got[4].json.changes).toContainEqual({ op: 'delete', kind: 'project', id: ids.project })
  })

  it('tells a sharing change as a `project` delivery without the link key', async () => {
    const owner = await signUp(server.url, { name: 'Ana' })
    const ids = await makeBoard(owner.client)
    const hook = await receiver()
    await register(owner.client, { url: hook.url, events: ['project'] })
    await rename(owner.client, ids.feature, 'Not a project event')
    expect((await owner.client.post(`/v1/projects/${ids.project}/sharing`, { enabled: false })).status).toBe(
      200,
    )
    expect((await owner.client.post(`/v1/projects/${ids.project}/sharing`, { enabled: false })).status).toBe(
      200,
    )
    const link = await owner.client.post(`/v1/projects/${ids.project}/newlink`)
    expect(link.status).toBe(200)
    const got = await hook.waitFor(2)
    const version = (await owner.client.get(`/v1/projects/${ids.project}`)).json.version
    // Each is a change of the map's log (issue 32), with a version of its own.
    expect(got[0].json).toMatchObject({
      type: 'project',
      projectId: ids.project,
      version: version - 1,
      by: { name: 'Ana' },
      changes: [],
      summary: "Turned off the share link of project 'Map'",
    })
    expect(got[1].json).toMatchObject({
      type: 'project',
      version,
      summary: "Made a new share link for project 'Map'",
    })
    expect(got[1].body).not.toContain(link.json.externalLink)
    const probe = await owner.client.post(`/v1/projects/${ids.project}/rename`, { title: 'Map 2' })
    expect(probe.status).toBe(200)
    expect((await hook.waitFor(3))[2].json.changes[0].entity.title).toBe('Map 2')
  })

  it('keeps version order for a burst, and filters by project and by event', async () => {
    const owner = await signUp(server.url)
    const ids = await makeBoard(owner.client)
    const other = await makeBoard(owner.client)
    const all = await receiver()
    const onlyOther = await receiver()
    const comments = await receiver()
    await register(owner.client, { url: all.url, events: ['change'] })
    await register(owner.client, { url: onlyOther.url, projectId: other.project, events: ['change'] })
    await register(owner.client, { url: comments.url, events: ['comment'] })
    await Promise.all(Array.from({ length: 20 }, (_, i) => rename(owner.client, ids.feature, `Title ${i}`)))
    await rename(owner.client, other.feature, 'Other')
    await owner.client.post(`/v1/featurecomments/${uuid()}`, { featureId: ids.feature, post: 'Hi' })
    const got = await all.waitFor(21)
    const versions = got.filter((r) => r.json.projectId === ids.project).map((r) => r.json.version)
    expect(versions).toHaveLength(20)
    expect(versions).toEqual([...versions].sort((a, b) => a - b))
    expect(new Set(got.map((r) => r.json.type))).toEqual(new Set(['change']))
    const theirs = await onlyOther.waitFor(1)
    const [comment] = await comments.waitFor(1)
    expect(comment.json).toMatchObject({ type: 'comment', projectId: ids.project })
    const log = await owner.client.get('/v1/webhooks')
    expect(log.json.webhooks).toHaveLength(3)
    expect(theirs.every((r) => r.json.projectId === other.project)).toBe(true)
    expect(comments.received.every((r) => r.json.type === 'comment')).toBe(true)
  })

  it('retries a failing delivery with the same id, holding back the later ones, until the receiver recovers', async () => {
    const owner = await signUp(server.url)
    const ids = await makeBoard(owner.client)
    const hook = await receiver()
    let failures = 3
    hook.answer(() => (failures-- > 0 ? 503 : 200))
    const { webhook } = await register(owner.client, { url: hook.url, events: ['change'] })
    await rename(owner.client, ids.feature, 'First')
    await rename(owner.client, ids.feature, 'Second')
    const got = await hook.waitFor(5)
    const titles = got.map((r) => r.json.changes[0].entity.title)
    expect(titles).toEqual(['First', 'First', 'First', 'First', 'Second'])
    expect(new Set(got.slice(0, 4).map((r) => r.headers['webhook-id'])).size).toBe(1)
    expect(got[4].headers['webhook-id']).not.toBe(got[0].headers['webhook-id'])
    // The back-off grows (scaled down 1000×: 10 ms, 60 ms, 600 ms).
    expect(got[3].at - got[2].at).toBeGreaterThanOrEqual(500)
    const deliveries = (await owner.client.get(`/v1/webhooks/${webhook.id}/deliveries`)).json.deliveries
    expect(deliveries[1]).toMatchObject({
      id: got[0].headers['webhook-id'],
      event: 'change',
      status: 200,
      attempt: 4,
      error: null,
      state: 'delivered',
    })
    expect(deliveries[0]).toMatchObject({ status: 200, attempt: 1 })
  })

  it('follows no redirect and keeps at most 4 KB of an answer', async () => {
    const owner = await signUp(server.url)
    const hook = await receiver()
    const { webhook } = await register(owner.client, { url: hook.url })
    hook.answer((r) => (r.url === '/hook' ? { status: 307, headers: { Location: '/elsewhere' } } : 200))
    const moved = await owner.client.post(`/v1/webhooks/${webhook.id}/test`)
    expect(moved.json.delivery).toMatchObject({ status: 307, state: 'failed' })
    expect(hook.received.map((r) => r.url)).toEqual(['/hook'])
    hook.answer(() => ({ status: 500, body: 'x'.repeat(10_000) }))
    const big = await owner.client.post(`/v1/webhooks/${webhook.id}/test`)
    expect(big.json.delivery).toMatchObject({ status: 500, state: 'failed' })
    expect(big.json.delivery.error).toHaveLength(4096)
  })

  it('gives a receiver 10 s to answer', async () => {
    const owner = await signUp(server.url)
    const hook = await receiver()
    const { webhook } = await register(owner.client, { url: hook.url })
    hook.answer(() => new Promise((resolve) => setTimeout(() => resolve(200), 15_000)))
    const started = Date.now()
    const slow = await owner.client.post(`/v1/webhooks/${webhook.id}/test`)
    expect(slow.json.delivery).toMatchObject({
      status: null,
      state: 'failed',
      error: 'No answer within 10 s.',
    })
    expect(Date.now() - started).toBeGreaterThanOrEqual(9_900)
    expect(Date.now() - started).toBeLessThan(14_000)
  })

  it('sends a test ping on demand and logs it; a deleted endpoint gets nothing more', async () => {
    const owner = await signUp(server.url)
    const ids = await makeBoard(owner.client)
    const hook = await receiver()
    const { webhook, secret } = await register(owner.client, { url: hook.url })
    const test = await owner.client.post(`/v1/webhooks/${webhook.id}/test`)
    expect(test.status, test.text).toBe(200)
    expect(test.json.delivery).toMatchObject({ event: 'ping', status: 200, attempt: 1, error: null })
    const [ping] = await hook.waitFor(1)
    expect(new Webhook(secret).verify(ping.body, ping.headers as Record<string, string>)).toMatchObject({
      type: 'ping',
      workspaceId: owner.workspaceId,
      changes: [],
    })
    expect(
      (await owner.client.get(`/v1/webhooks/${webhook.id}/deliveries`)).json.deliveries[0],
    ).toMatchObject({ id: ping.headers['webhook-id'], event: 'ping' })
    expect((await owner.client.delete(`/v1/webhooks/${webhook.id}`)).status).toBe(200)
    await rename(owner.client, ids.feature, 'After delete')
    const probe = await receiver()
    await register(owner.client, { url: probe.url })
    await rename(owner.client, ids.feature, 'Probe')
    await probe.waitFor(1)
    expect(hook.received).toHaveLength(1)
  })
})

describe('an endpoint that keeps failing', () => {
  it('is disabled after the failure window and the owners get an e-mail', async () => {
    const mailbox = await startMailbox()
    const short = await startServer({ ...OPEN, WEBHOOKS_RETRY_SCALE: '0.00003', SMTP_URL: mailbox.url })
    try {
      const owner = await signUp(short.url)
      await mailbox.waitFor(owner.email) // the sign-up's verification
      const since = mailbox.mails.length
      const ids = await makeBoard(owner.client)
      const hook = await receiver()
      hook.answer(() => 500)
      const { webhook } = await register(owner.client, { url: hook.url })
      await rename(owner.client, ids.feature, 'Never arrives')
      const mail = await mailbox.waitFor(owner.email, since)
      expect(mail.subject).toBe('A webhook was disabled')
      expect(mail.text).toContain(owner.workspaceName)
      const [listed] = (await owner.client.get('/v1/webhooks')).json.webhooks
      expect(listed).toMatchObject({ id: webhook.id })
      expect(listed.disabledAt).not.toBeNull()
      const tries = hook.received.length
      await rename(owner.client, ids.feature, 'Not sent')
      const deliveries = (await owner.client.get(`/v1/webhooks/${webhook.id}/deliveries`)).json.deliveries
      expect(deliveries).toHaveLength(1)
      expect(deliveries[0]).toMatchObject({ status: 500, state: 'failed', attempt: tries })
      expect(short.output()).not.toContain('whsec_')
    } finally {
      await short.stop()
      await mailbox.close()
    }
  })
})

describe('the address is checked again at each delivery', () => {
  it('refuses to deliver to loopback once WEBHOOKS_ALLOW_PRIVATE is off, and logs why', async () => {
    const open = await startServer(OPEN)
    const owner = await signUp(open.url)
    const ids = await makeBoard(owner.client)
    const hook = await receiver()
    // A host name, so the check is the one made on the resolved address when connecting.
    const byName = hook.url.replace('127.0.0.1', 'localhost')
    const made = await owner.client.post('/v1/webhooks', { url: byName, events: ['change'] })
    expect(made.status, made.text).toBe(201)
    const webhook = made.json.webhook
    expect(await open.stop()).toBe(0)
    const strict = await startServer(
      { WEBHOOKS_ALLOW_HTTP: 'true', WEBHOOKS_RETRY_SCALE: '0.001' },
      { dir: open.dir },
    )
    try {
      const client = new Client(strict.url, owner.workspaceId)
      client.cookies = owner.client.cookies
      expect((await rename(client, ids.feature, 'Not to loopback')).status).toBe(200)
      await expect
        .poll(
          async () =>
            (await client.get(`/v1/webhooks/${webhook.id}/deliveries`)).json.deliveries[0]?.attempt ?? 0,
        )
        .toBeGreaterThanOrEqual(2)
      const [delivery] = (await client.get(`/v1/webhooks/${webhook.id}/deliveries`)).json.deliveries
      expect(delivery).toMatchObject({
        status: null,
        state: 'pending',
        error: 'The address is private, loopback or link-local.',
      })
      expect(hook.received).toHaveLength(0)
    } finally {
      await strict.stop()
    }
  })
})

describe('a restart in the middle of a retry', () => {
  it('delivers the message after the restart, with the same webhook-id', async () => {
    const first = await startServer({ ...OPEN, WEBHOOKS_RETRY_SCALE: '0.1' })
    const owner = await signUp(first.url)
    const ids = await makeBoard(owner.client)
    const hook = await receiver()
    hook.answer(() => 500)
    await register(owner.client, { url: hook.url, events: ['change'] })
    await rename(owner.client, ids.feature, 'Across a restart')
    const [failed] = await hook.waitFor(1)
    expect(await first.stop()).toBe(0)
    hook.answer(() => 200)
    // The retry is due 1 s after the failure (10 s scaled by 0.1); the new process sends it.
    const second = await startServer({ ...OPEN, WEBHOOKS_RETRY_SCALE: '0.1' }, { dir: first.dir })
    try {
      const got = await hook.waitFor(2)
      expect(got[1].headers['webhook-id']).toBe(failed.headers['webhook-id'])
      expect(got[1].json.changes[0].entity.title).toBe('Across a restart')
      const again = new Client(second.url, owner.workspaceId)
      again.cookies = owner.client.cookies
      const [webhook] = (await again.get('/v1/webhooks')).json.webhooks
      const deliveries = (await again.get(`/v1/webhooks/${webhook.id}/deliveries`)).json.deliveries
      expect(deliveries[0]).toMatchObject({ state: 'delivered', attempt: 2, status: 200 })
    } finally {
      await second.stop()
    }
  })
})
