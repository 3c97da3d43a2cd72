import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addMember, bundle, makeBoard, uuid } from '../support/board'
import { Client, signUp } from '../support/client'
import { LiveStream } from '../support/live'
import { startServer, type RunningServer } from '../support/server'

/** Personal API tokens and Bearer auth on /v1 (CONTRACT §10), over real HTTP. */
let server: RunningServer
let owner: Awaited<ReturnType<typeof signUp>>
let ids: Awaited<ReturnType<typeof makeBoard>>
const secrets: string[] = []

beforeAll(async () => {
  server = await startServer({ LOG_LEVEL: 'info' })
  owner = await signUp(server.url, { name: 'Ana Owner' })
  ids = await makeBoard(owner.client)
})
afterAll(async () => {
  await server?.stop()
})

async function makeToken(client: Client, workspaceId: string, scope: 'read' | 'write', extra: object = {}) {
  const res = await client.post('/v1/account/tokens', { name: `CI ${scope}`, workspaceId, scope, ...extra })
  expect(res.status, res.text).toBe(201)
  secrets.push(res.json.secret)
  return res.json as { token: Record<string, unknown> & { id: string }; secret: string }
}

/** A script: no cookie, no Workspace header unless given. */
function bearer(secret: string, headers: Record<string, string> = {}) {
  const script = new Client(server.url)
  const call = (method: string, path: string, body?: unknown) =>
    script.request(method, path, body, { Authorization: `Bearer ${secret}`, ...headers })
  return {
    get: (path: string) => call('GET', path),
    post: (path: string, body?: unknown) => call('POST', path, body),
    call,
  }
}

const featureTitle = async () =>
  (await bundle(owner.client, ids.project)).features.find((f: { id: string }) => f.id === ids.feature)?.title

function db() {
  const handle = new Database(server.dbPath)
  handle.pragma('busy_timeout = 5000')
  return handle
}

describe('making and listing tokens', () => {
  it('shows the secret once; lists keep the prefix; the database keeps only a hash', async () => {
    const { token, secret } = await makeToken(owner.client, owner.workspaceId, 'read', { expiresInDays: 30 })
    expect(secret).toMatch(/^smp_[0-9A-Za-z]{32,}$/)
    expect(token).toMatchObject({
      name: 'CI read',
      workspaceId: owner.workspaceId,
      scope: 'read',
      prefix: secret.slice(0, 8),
      lastUsedAt: null,
    })
    expect(Date.parse(String(token.expiresAt)) - Date.parse(String(token.createdAt))).toBe(30 * 86_400_000)
    const list = await owner.client.get('/v1/account/tokens')
    expect(list.status).toBe(200)
    expect(list.json.tokens.map((t: { id: string }) => t.id)).toContain(token.id)
    expect(list.text).not.toContain(secret)
    const handle = db()
    const stored = JSON.stringify(handle.prepare('select * from api_tokens').all())
    handle.close()
    expect(stored).not.toContain(secret)
  })

  it('refuses a bad request with the field it names, and a workspace the caller is not in', async () => {
    const bad = await owner.client.post('/v1/account/tokens', {
      name: '',
      workspaceId: owner.workspaceId,
      scope: 'read',
    })
    expect(bad).toMatchObject({ status: 400, json: { error: 'name_invalid' } })
    const scope = await owner.client.post('/v1/account/tokens', {
      name: 'x',
      workspaceId: owner.workspaceId,
      scope: 'admin',
    })
    expect(scope).toMatchObject({ status: 400, json: { error: 'scope_invalid' } })
    const days = await owner.client.post('/v1/account/tokens', {
      name: 'x',
      workspaceId: owner.workspaceId,
      scope: 'read',
      expiresInDays: 366,
    })
    expect(days).toMatchObject({ status: 400, json: { error: 'expires_in_days_invalid' } })
    const stranger = await signUp(server.url)
    const foreign = await stranger.client.post('/v1/account/tokens', {
      name: 'x',
      workspaceId: owner.workspaceId,
      scope: 'read',
    })
    expect(foreign.status).toBe(403)
    expect(
      await new Client(server.url).post('/v1/account/tokens', {
        name: 'x',
        workspaceId: owner.workspaceId,
        scope: 'read',
      }),
    ).toMatchObject({ status: 401 })
  })
})

describe('Bearer auth', () => {
  it('a read token reads its workspace without a Workspace header, may not write, and marks its last use', async () => {
    const { token, secret } = await makeToken(owner.client, owner.workspaceId, 'read')
    const script = bearer(secret)
    const read = await script.get(`/v1/projects/${ids.project}`)
    expect(read.status).toBe(200)
    expect(read.json.project.id).toBe(ids.project)
    const write = await script.post(`/v1/features/${ids.feature}/rename`, { title: 'By script' })
    expect(write).toMatchObject({ status: 403, json: { error: 'token_read_only' } })
    expect(await featureTitle()).toBe('Feature')
    const listed = (await owner.client.get('/v1/account/tokens')).json.tokens.find(
      (t: { id: string }) => t.id === token.id,
    )
    expect(listed.lastUsedAt).not.toBeNull()
  })

  it('a write token writes as its member; the change says via which token, live, in activity, and undo takes it back', async () => {
    const { secret } = await makeToken(owner.client, owner.workspaceId, 'write')
    const script = bearer(secret)
    const renamed = await script.post(`/v1/features/${ids.feature}/rename`, { title: 'Renamed by CI' })
    expect(renamed.status, renamed.text).toBe(200)
    const activity = await owner.client.get(`/v1/projects/${ids.project}/activity?limit=1`)
    expect(activity.json.items[0]).toMatchObject({
      by: { memberId: expect.any(String), name: 'Ana Owner', via: 'CI write' },
      summary: "Renamed feature 'Feature' to 'Renamed by CI'",
    })
    // The member's own undo (in the browser) takes back what their token did.
    const undone = await owner.client.post(`/v1/projects/${ids.project}/undo`)
    expect(undone.status, undone.text).toBe(200)
    expect(await featureTitle()).toBe('Feature')
    // The same Workspace header is fine; another is refused.
    expect((await bearer(secret, { Workspace: owner.workspaceId }).get('/v1/projects')).status).toBe(200)
    expect(await bearer(secret, { Workspace: uuid() }).get('/v1/projects')).toMatchObject({ status: 403 })
  })

  it('a token follows the live board: the stream shows changes made with it, and ends when it is revoked', async () => {
    const { token, secret } = await makeToken(owner.client, owner.workspaceId, 'write')
    const stream = await LiveStream.open(server.url, `/v1/projects/${ids.project}/events`, {
      headers: { Authorization: `Bearer ${secret}` },
    })
    try {
      await stream.next('ready')
      expect((await bearer(secret).post(`/v1/features/${ids.feature}/color`, { color: 'RED' })).status).toBe(
        200,
      )
      const change = (await stream.next('change')).data
      expect(change.by).toMatchObject({ name: 'Ana Owner', via: 'CI write' })
      expect((await owner.client.request('DELETE', `/v1/account/tokens/${token.id}`)).status).toBe(200)
      await stream.endedWithin(15_000)
    } finally {
      stream.close()
    }
  })

  it('a token never goes above its member: a viewer’s write token cannot write', async () => {
    const viewer = await signUp(server.url)
    addMember(server.dbPath, owner.workspaceId, viewer.account.id, 'VIEWER')
    const { secret } = await makeToken(viewer.client, owner.workspaceId, 'write')
    const res = await bearer(secret).post(`/v1/features/${ids.feature}/rename`, { title: 'Viewer' })
    expect(res).toMatchObject({ status: 403, json: { error: 'level_too_low' } })
  })

  it('a bad, unknown, expired or revoked token, or one in the URL, is 401 invalid_token with WWW-Authenticate', async () => {
    const { token, secret } = await makeToken(owner.client, owner.workspaceId, 'read')
    const expired = await makeToken(owner.client, owner.workspaceId, 'read', { expiresInDays: 1 })
    const handle = db()
    handle
      .prepare('update api_tokens set expires_at = ? where id = ?')
      .run(new Date(Date.now() - 1000).toISOString(), expired.token.id)
    handle.close()
    expect((await owner.client.request('DELETE', `/v1/account/tokens/${token.id}`)).status).toBe(200)
    const script = new Client(server.url)
    const cases: [string, Record<string, string>][] = [
      ['empty', { Authorization: 'Bearer ' }],
      ['malformed', { Authorization: 'Bearer not-a-token' }],
      ['another scheme', { Authorization: `Basic ${Buffer.from('a:b').toString('base64')}` }],
      ['unknown', { Authorization: `Bearer smp_${'x'.repeat(40)}` }],
      ['expired', { Authorization: `Bearer ${expired.secret}` }],
      ['revoked', { Authorization: `Bearer ${secret}` }],
    ]
    for (const [name, headers] of cases) {
      const res = await script.request('GET', '/v1/projects', undefined, {
        ...headers,
        Workspace: owner.workspaceId,
      })
      expect([name, res.status, res.json?.error], res.text).toEqual([name, 401, 'invalid_token'])
      expect(res.headers.get('www-authenticate'), name).toMatch(/^Bearer/)
    }
    const inUrl = await script.get(`/v1/projects?access_token=${expired.secret}`, {
      Workspace: owner.workspaceId,
    })
    expect(inUrl).toMatchObject({ status: 401, json: { error: 'invalid_token' } })
    expect(
      (await owner.client.get('/v1/account/tokens')).json.tokens.map((t: { id: string }) => t.id),
    ).not.toContain(token.id)
  })

  it('account, sign-in, workspace deletion and token management need a session: 403 token_not_allowed', async () => {
    const { secret } = await makeToken(owner.client, owner.workspaceId, 'write')
    const script = bearer(secret)
    const calls: [string, string, unknown?][] = [
      ['GET', '/v1/account/app'],
      ['GET', '/v1/account/tokens'],
      ['POST', '/v1/account/tokens', { name: 'x', workspaceId: owner.workspaceId, scope: 'write' }],
      ['POST', '/v1/users/logout'],
      ['POST', '/v1/delete', {}],
      ['GET', '/v1/workspace/tokens'],
    ]
    for (const [method, path, body] of calls) {
      const res = await script.call(method, path, body)
      expect([method, path, res.status, res.json?.error]).toEqual([method, path, 403, 'token_not_allowed'])
    }
    // The contact form is open to scripts.
    const contact = await script.post('/v1/users/contact', {
      email: 'ana@example.com',
      message: 'Hello from CI',
    })
    expect(contact.json?.error).not.toBe('token_not_allowed')
    expect((await owner.client.get('/v1/account/app')).status).toBe(200)
  })

  it('the Bearer header alone counts, and needs no Origin of ours', async () => {
    const other = await signUp(server.url)
    const { secret } = await makeToken(owner.client, owner.workspaceId, 'write')
    // Another account's cookie beside Ana's token: the request is Ana's.
    const mixed = await other.client.request(
      'POST',
      `/v1/features/${ids.feature}/rename`,
      { title: 'Mixed' },
      {
        Authorization: `Bearer ${secret}`,
        Workspace: owner.workspaceId,
        Origin: 'https://elsewhere.example',
      },
    )
    expect(mixed.status, mixed.text).toBe(200)
    expect(await featureTitle()).toBe('Mixed')
  })
})

describe('who manages tokens, and when they end', () => {
  it('owners and admins list and revoke every member’s tokens of the workspace; editors may not', async () => {
    const editor = await signUp(server.url, { name: 'Eddie Editor' })
    addMember(server.dbPath, owner.workspaceId, editor.account.id, 'EDITOR')
    const { token, secret } = await makeToken(editor.client, owner.workspaceId, 'write')
    const listed = await owner.client.get('/v1/workspace/tokens')
    expect(listed.status).toBe(200)
    expect(listed.json.tokens).toContainEqual(
      expect.objectContaining({ id: token.id, member: expect.objectContaining({ name: 'Eddie Editor' }) }),
    )
    expect(listed.text).not.toContain(secret)
    editor.client.workspaceId = owner.workspaceId
    expect(await editor.client.get('/v1/workspace/tokens')).toMatchObject({
      status: 403,
      json: { error: 'level_too_low' },
    })
    expect((await owner.client.request('DELETE', `/v1/workspace/tokens/${token.id}`)).status).toBe(200)
    expect(await bearer(secret).get('/v1/projects')).toMatchObject({
      status: 401,
      json: { error: 'invalid_token' },
    })
    expect((await owner.client.request('DELETE', `/v1/workspace/tokens/${uuid()}`)).status).toBe(404)
  })

  it('removing a member, or deleting the account, revokes their tokens', async () => {
    const removed = await signUp(server.url)
    addMember(server.dbPath, owner.workspaceId, removed.account.id, 'EDITOR')
    const first = await makeToken(removed.client, owner.workspaceId, 'read')
    expect((await bearer(first.secret).get('/v1/projects')).status).toBe(200)
    const members = (await owner.client.get('/v1/members')).json as
      { id: string; accountId?: string; email?: string }[] | { members: { id: string; email: string }[] }
    const list = Array.isArray(members) ? members : members.members
    const member = list.find((m) => m.email === removed.email)!
    expect((await owner.client.request('DELETE', `/v1/members/${member.id}`)).status).toBe(200)
    expect(await bearer(first.secret).get('/v1/projects')).toMatchObject({ status: 401 })

    const leaving = await signUp(server.url)
    const own = await makeToken(leaving.client, leaving.workspaceId, 'read')
    expect((await bearer(own.secret).get('/v1/projects')).status).toBe(200)
    expect((await leaving.client.post('/v1/account/delete')).status).toBe(200)
    expect(await bearer(own.secret).get('/v1/projects')).toMatchObject({ status: 401 })
  })

  it('no secret is ever written to the log', () => {
    expect(secrets.length).toBeGreaterThan(5)
    const log = server.output()
    expect(log.length).toBeGreaterThan(0)
    for (const secret of secrets) expect(log).not.toContain(secret)
  })
})
