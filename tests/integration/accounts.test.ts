import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client, signUp } from '../support/client'
import { startServer, type RunningServer } from '../support/server'

let server: RunningServer

beforeAll(async () => {
  server = await startServer()
})
afterAll(async () => {
  await server?.stop()
})

const valid = () => ({
  workspaceName: `acme${Math.floor(Math.random() * 1e9)}`,
  name: 'Ann Example',
  email: `ann${Math.floor(Math.random() * 1e9)}@example.com`,
  password: 'secret123',
})

describe('POST /v1/users/signup', () => {
  it('creates the account, its workspace as OWNER, an active subscription, and a session', async () => {
    const client = new Client(server.url)
    const body = valid()
    const res = await client.post('/v1/users/signup', body)
    expect(res.status).toBe(200)
    expect(res.json).toMatchObject({ name: 'Ann Example', email: body.email, emailConfirmed: false })
    expect(res.json.password).toBeUndefined()
    expect(res.json.passwordHash).toBeUndefined()
    expect(res.headers.get('set-cookie')).toMatch(/HttpOnly/i)
    expect(res.headers.get('set-cookie')).toMatch(/SameSite=Lax/i)

    const app = await client.get('/v1/account/app')
    expect(app.status).toBe(200)
    expect(app.json.mode).toBe('selfhosted')
    expect(app.json.workspaces).toHaveLength(1)
    expect(app.json.workspaces[0]).toMatchObject({ name: body.workspaceName, allowExternalSharing: true })
    expect(app.json.memberships[0]).toMatchObject({ level: 'OWNER', workspaceId: app.json.workspaces[0].id })
    expect(app.json.subscriptions[0]).toMatchObject({ externalStatus: 'active', expirationDate: null })
  })

  it('stores the password hashed with argon2id', async () => {
    const body = valid()
    await new Client(server.url).post('/v1/users/signup', body)
    const db = new Database(server.dbPath, { readonly: true })
    const row = db.prepare('select password_hash from accounts where email = ?').get(body.email) as {
      password_hash: string
    }
    db.close()
    expect(row.password_hash).toMatch(/^\$argon2id\$/)
    expect(row.password_hash).not.toContain(body.password)
  })

  it.each([
    ['workspaceName', 'Acme Co', 'workspace_invalid', 'Workspace is invalid.'],
    ['workspaceName', 'a', 'workspace_invalid', 'Workspace is invalid.'],
    ['name', '', 'name_invalid', 'Name is invalid.'],
    ['name', 'x'.repeat(201), 'name_invalid', 'Name is invalid.'],
    ['email', 'not-an-email', 'email_invalid', 'Email is invalid.'],
    ['password', '12345', 'password_invalid', 'Password is invalid.'],
    ['password', 'x'.repeat(201), 'password_invalid', 'Password is invalid.'],
  ])('refuses a bad %s (%j) with 400 %s', async (field, value, code, message) => {
    const res = await new Client(server.url).post('/v1/users/signup', { ...valid(), [field]: value })
    expect(res.status).toBe(400)
    expect(res.json).toEqual({ error: code, message })
  })

  it('refuses a missing field and a wrongly typed one', async () => {
    const { password: _omit, ...noPassword } = valid()
    expect((await new Client(server.url).post('/v1/users/signup', noPassword)).json.error).toBe(
      'password_invalid',
    )
    expect(
      (await new Client(server.url).post('/v1/users/signup', { ...valid(), email: 42 })).json.error,
    ).toBe('email_invalid')
  })

  it('answers 409 email_taken and workspace_taken, changing nothing', async () => {
    const first = valid()
    expect((await new Client(server.url).post('/v1/users/signup', first)).status).toBe(200)
    const sameEmail = await new Client(server.url).post('/v1/users/signup', {
      ...valid(),
      email: first.email.toUpperCase(),
    })
    expect(sameEmail.status).toBe(409)
    expect(sameEmail.json).toEqual({ error: 'email_taken', message: 'Email is already registered.' })
    const second = { ...valid(), workspaceName: first.workspaceName }
    const sameWorkspace = await new Client(server.url).post('/v1/users/signup', second)
    expect(sameWorkspace.status).toBe(409)
    expect(sameWorkspace.json).toEqual({
      error: 'workspace_taken',
      message: 'Workspace name is already registered.',
    })
    // The refused sign-up created no account.
    const login = await new Client(server.url).post('/v1/users/login', {
      email: second.email,
      password: second.password,
    })
    expect(login.status).toBe(401)
  })

  it('never answers 500 or HTML to malformed bodies', async () => {
    for (const raw of ['{', '[]', 'null', '"text"', '{"email": {"$gt": ""}}']) {
      const res = await new Client(server.url).post('/v1/users/signup', raw, {
        'Content-Type': 'application/json',
      })
      expect(res.status).toBe(400)
      expect(res.headers.get('content-type')).toMatch(/application\/json/)
      expect(res.json.error).toBeTypeOf('string')
    }
  })
})

describe('log-in and sessions', () => {
  it('logs in with the right password and refuses a wrong one with login_failed', async () => {
    const user = await signUp(server.url)
    const bad = await new Client(server.url).post('/v1/users/login', {
      email: user.email,
      password: 'wrong-password',
    })
    expect(bad.status).toBe(401)
    expect(bad.json).toEqual({ error: 'login_failed', message: 'Email or password is incorrect.' })
    const unknown = await new Client(server.url).post('/v1/users/login', {
      email: 'nobody@example.com',
      password: 'whatever1',
    })
    expect(unknown.json).toEqual(bad.json)
    const client = new Client(server.url)
    const ok = await client.post('/v1/users/login', {
      email: user.email.toUpperCase(),
      password: user.password,
    })
    expect(ok.status).toBe(200)
    expect((await client.get('/v1/account/app')).json.account.email).toBe(user.email)
  })

  it('gives each log-in a new session id', async () => {
    const user = await signUp(server.url)
    const a = new Client(server.url)
    await a.post('/v1/users/login', { email: user.email, password: user.password })
    const b = new Client(server.url)
    await b.post('/v1/users/login', { email: user.email, password: user.password })
    expect(a.cookieHeader()).not.toBe(b.cookieHeader())
    expect(a.cookieHeader()).not.toBe(user.client.cookieHeader())
  })

  it('refuses /v1/account/app without a session (401)', async () => {
    const res = await new Client(server.url).get('/v1/account/app')
    expect(res.status).toBe(401)
    expect(res.json.error).toBe('unauthorized')
  })

  it('logout ends the session on the server, even for a copied cookie', async () => {
    const user = await signUp(server.url)
    const copy = new Client(server.url)
    copy.cookies = new Map(user.client.cookies)
    expect((await user.client.post('/v1/users/logout')).status).toBe(200)
    expect((await user.client.get('/v1/account/app')).status).toBe(401)
    expect((await copy.get('/v1/account/app')).status).toBe(401)
  })

  it('refuses an expired session', async () => {
    const user = await signUp(server.url)
    expect((await user.client.get('/v1/account/app')).status).toBe(200)
    const db = new Database(server.dbPath)
    db.prepare(
      "update sessions set expires_at = '2000-01-01T00:00:00.000Z' where account_id = (select id from accounts where email = ?)",
    ).run(user.email)
    db.close()
    expect((await user.client.get('/v1/account/app')).status).toBe(401)
  })

  it('refuses a forged cookie', async () => {
    const client = new Client(server.url)
    client.cookies.set('storymap_session', 'forged-value')
    expect((await client.get('/v1/account/app')).status).toBe(401)
  })
})

describe('workspaces', () => {
  it('/v1/account/app shows only the caller’s own workspaces', async () => {
    const ann = await signUp(server.url)
    const bob = await signUp(server.url)
    const annApp = (await ann.client.get('/v1/account/app')).json
    const names = annApp.workspaces.map((w: { name: string }) => w.name)
    expect(names).toEqual([ann.workspaceName])
    expect(JSON.stringify(annApp)).not.toContain(bob.workspaceName)
    expect(JSON.stringify(annApp)).not.toContain(bob.email)
  })

  it('POST /v1/account/workspaces creates another workspace owned by the caller', async () => {
    const user = await signUp(server.url)
    const name = `second${Math.floor(Math.random() * 1e9)}`
    const res = await user.client.post('/v1/account/workspaces', { name })
    expect(res.status).toBe(200)
    expect(res.json).toMatchObject({ name })
    const app = (await user.client.get('/v1/account/app')).json
    expect(app.workspaces.map((w: { name: string }) => w.name).sort()).toEqual(
      [user.workspaceName, name].sort(),
    )
    expect(app.memberships.every((m: { level: string }) => m.level === 'OWNER')).toBe(true)
    expect(app.subscriptions).toHaveLength(2)
  })

  it('refuses bad and taken workspace names', async () => {
    const user = await signUp(server.url)
    const bad = await user.client.post('/v1/account/workspaces', { name: 'Has Spaces' })
    expect(bad.status).toBe(400)
    expect(bad.json).toEqual({ error: 'name_invalid', message: 'Name is invalid.' })
    const taken = await user.client.post('/v1/account/workspaces', { name: user.workspaceName })
    expect(taken.status).toBe(409)
    expect(taken.json.error).toBe('workspace_taken')
    const reserved = await user.client.post('/v1/account/workspaces', { name: 'account' })
    expect(reserved.status).toBe(409)
    expect((await new Client(server.url).post('/v1/account/workspaces', { name: 'nosession' })).status).toBe(
      401,
    )
  })
})

describe('operations and API shape', () => {
  it('GET /healthz answers {"ok":true}', async () => {
    const res = await new Client(server.url).get('/healthz')
    expect(res.status).toBe(200)
    expect(res.json).toEqual({ ok: true })
  })

  it('answers unknown /v1 routes and wrong methods with JSON errors', async () => {
    const unknown = await new Client(server.url).get('/v1/no/such/route')
    expect(unknown.status).toBe(404)
    expect(unknown.json.error).toBe('not_found')
    const wrongMethod = await new Client(server.url).get('/v1/users/login')
    expect(wrongMethod.status).toBe(405)
    expect(wrongMethod.json.error).toBe('method_not_allowed')
  })

  it('refuses a cross-site POST (403) and accepts a same-site one', async () => {
    const body = valid()
    const evil = await new Client(server.url).post('/v1/users/signup', body, {
      Origin: 'https://evil.example',
    })
    expect(evil.status).toBe(403)
    expect(evil.json.error).toBe('cross_origin')
    const same = await new Client(server.url).post('/v1/users/signup', body, { Origin: server.url })
    expect(same.status).toBe(200)
  })

  it('refuses bodies over 1 MB with 413', async () => {
    const res = await new Client(server.url).post('/v1/users/signup', {
      ...valid(),
      name: 'x'.repeat(1_100_000),
    })
    expect(res.status).toBe(413)
    expect(res.json.error).toBe('too_large')
  })

  it('serves a Page not found page for unknown paths', async () => {
    const res = await new Client(server.url).get('/account/no-such-page')
    expect(res.status).toBe(404)
    expect(res.text).toContain('Page not found')
  })
})
