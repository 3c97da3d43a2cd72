import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client } from '../support/client'
import { startMailbox } from '../support/mailbox'
import { startServer, type RunningServer } from '../support/server'
import { warningsSince } from '../support/server-log'

/**
 * Abuse (issue #7) against a server with RATE_LIMIT=on. The server believes X-Forwarded-For from
 * loopback (a local proxy), so each test speaks from its own address and budgets do not mix.
 */
let server: RunningServer
let mailbox: Awaited<ReturnType<typeof startMailbox>>
beforeAll(async () => {
  mailbox = await startMailbox()
  server = await startServer({ RATE_LIMIT: 'on', SMTP_URL: mailbox.url, CONTACT_EMAIL: 'team@storymap.test' })
})
afterAll(async () => {
  await server?.stop()
  await mailbox?.close()
})

let ipCounter = 0
const newIp = () => `203.0.113.${++ipCounter}`
const from = (ip: string) => ({ 'X-Forwarded-For': ip })
const form = (fields: Record<string, string>) => new URLSearchParams(fields)
const tag = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6)}`

async function newUser(ip = newIp()) {
  const t = tag()
  const body = {
    workspaceName: `ws${t}`,
    name: 'Rate Tester',
    email: `rate${t}@example.com`,
    password: 'correct-horse',
  }
  const client = new Client(server.url)
  const res = await client.post('/v1/users/signup', body, from(ip))
  expect(res.status).toBe(200)
  const app = await client.get('/v1/account/app')
  client.workspaceId = app.json.workspaces[0].id
  return { client, ...body }
}

function expectTooMany(res: { status: number; headers: Headers; json?: any }, api = true) {
  expect(res.status).toBe(429)
  const retryAfter = Number(res.headers.get('retry-after'))
  expect(retryAfter).toBeGreaterThan(0)
  expect(retryAfter).toBeLessThanOrEqual(3600)
  if (api)
    expect(res.json).toEqual({
      error: 'too_many_attempts',
      message: expect.stringMatching(/^Too many attempts/),
    })
}

it('starts without a BASE_URL warning: unset, but listening on loopback only (issue 43)', async () => {
  expect(await warningsSince(server)).toEqual([])
})

describe('log-in', () => {
  it('locks an address after 10 failures, for the API and the page, whatever the case; others still log in', async () => {
    const user = await newUser()
    const other = await newUser()
    const ip = newIp()
    for (let i = 0; i < 10; i++) {
      const res = await new Client(server.url).post(
        '/v1/users/login',
        { email: user.email, password: `wrong-${i}` },
        from(ip),
      )
      expect(res.status).toBe(401)
    }
    // The right password no longer helps, from any address, on the API or the page (also as a data request).
    const api = await new Client(server.url).post(
      '/v1/users/login',
      { email: user.email, password: user.password },
      from(newIp()),
    )
    expectTooMany(api)
    const page = await new Client(server.url).post(
      '/ACCOUNT/Login',
      form({ email: user.email.toUpperCase(), password: user.password }),
      from(newIp()),
    )
    expectTooMany(page, false)
    expect(page.headers.get('content-type')).toContain('text/html')
    expect(page.text).toContain('Too many attempts. Please try again in 15 minutes.')
    expect(page.headers.get('set-cookie') ?? '').not.toContain('storymap_session=')
    const data = await new Client(server.url).post(
      '/account/login.data',
      form({ email: user.email, password: user.password }),
      from(newIp()),
    )
    expect(data.status).toBe(429)
    expect(data.text).toContain('Too many attempts')
    // Another account from the same address is not affected.
    const ok = await new Client(server.url).post(
      '/v1/users/login',
      { email: other.email, password: other.password },
      from(ip),
    )
    expect(ok.status).toBe(200)
  })

  it('successful log-ins do not count', async () => {
    const user = await newUser()
    const ip = newIp()
    for (let i = 0; i < 12; i++) {
      const path = i % 2 ? '/v1/users/login' : '/account/login'
      const body = { email: user.email, password: user.password }
      const res = await new Client(server.url).post(path, i % 2 ? body : form(body), from(ip))
      expect([path, res.status]).toEqual([path, i % 2 ? 200 : 302])
    }
  })

  it('refuses an IP address after 50 failures, for every account', async () => {
    const ip = newIp()
    // Malformed attempts fail too (and skip the slow hash, which keeps this test quick).
    const attempts = Array.from({ length: 50 }, (_, i) =>
      new Client(server.url).post(
        '/v1/users/login',
        { email: `nobody${i}@example.com`, password: 'x' },
        from(ip),
      ),
    )
    expect((await Promise.all(attempts)).map((r) => r.status)).toEqual(Array(50).fill(400))
    const user = await newUser()
    expectTooMany(
      await new Client(server.url).post(
        '/v1/users/login',
        { email: user.email, password: user.password },
        from(ip),
      ),
    )
    expect(
      (
        await new Client(server.url).post(
          '/v1/users/login',
          { email: user.email, password: user.password },
          from(newIp()),
        )
      ).status,
    ).toBe(200)
  })
})

describe('sign-up, reset and contact', () => {
  it('sign-up: 5 tries per address, 20 per IP address, on the API and the page', async () => {
    const email = `taken${tag()}@example.com`
    for (let i = 0; i < 5; i++) {
      const res = await new Client(server.url).post(
        '/v1/users/signup',
        { workspaceName: `w${tag()}`, name: 'N', email, password: 'correct-horse' },
        from(newIp()),
      )
      expect(res.status).toBe(i === 0 ? 200 : 409)
    }
    expectTooMany(
      await new Client(server.url).post(
        '/v1/users/signup',
        { workspaceName: `w${tag()}`, name: 'N', email, password: 'correct-horse' },
        from(newIp()),
      ),
    )
    const ip = newIp()
    for (let i = 0; i < 20; i++) {
      const res = await new Client(server.url).post(
        '/account/signup',
        form({ workspaceName: 'Bad Name' }),
        from(ip),
      )
      expect(res.status).toBe(200)
    }
    const page = await new Client(server.url).post(
      '/account/signup',
      form({
        workspaceName: `w${tag()}`,
        name: 'N',
        email: `new${tag()}@example.com`,
        password: 'correct-horse',
      }),
      from(ip),
    )
    expectTooMany(page, false)
    expect(page.text).toContain('Too many attempts. Please try again in')
  })

  it('reset: 5 requests per address, 20 per IP address; the limit answers the same for unknown addresses', async () => {
    const user = await newUser()
    const since = mailbox.mails.length
    for (let i = 0; i < 5; i++) {
      expect(
        (await new Client(server.url).post(`/v1/users/reset/${user.email}`, undefined, from(newIp()))).status,
      ).toBe(200)
    }
    expectTooMany(
      await new Client(server.url).post(
        `/v1/users/reset/${user.email.toUpperCase()}`,
        undefined,
        from(newIp()),
      ),
    )
    await mailbox.waitFor(user.email, since)
    const ip = newIp()
    for (let i = 0; i < 20; i++) {
      const res = await new Client(server.url).post(
        `/v1/users/reset/nobody${i}@example.com`,
        undefined,
        from(ip),
      )
      expect(res.status).toBe(200)
    }
    expectTooMany(
      await new Client(server.url).post('/v1/users/reset/someone@example.com', undefined, from(ip)),
    )
    const page = await new Client(server.url).post(
      '/account/reset',
      form({ email: 'someone@example.com' }),
      from(ip),
    )
    expectTooMany(page, false)
    expect(page.text).toContain('Too many attempts')
    expect(page.text).not.toContain('Email sent.')
  })

  it('contact: 5 messages per sender, 10 per IP address', async () => {
    const sender = `writer${tag()}@example.com`
    const message = { topic: 'general', body: 'Hello there', sender }
    for (let i = 0; i < 5; i++) {
      expect((await new Client(server.url).post('/v1/users/contact', message, from(newIp()))).status).toBe(
        200,
      )
    }
    expectTooMany(await new Client(server.url).post('/v1/users/contact', message, from(newIp())))
    const ip = newIp()
    for (let i = 0; i < 10; i++) {
      const res = await new Client(server.url).post(
        '/account/contact',
        form({ topic: 'general', body: 'Hi', sender: `w${i}${tag()}@example.com` }),
        from(ip),
      )
      expect(res.text).toContain('Thank you! Your message has been sent.')
    }
    const page = await new Client(server.url).post(
      '/account/contact',
      form({ topic: 'general', body: 'Hi', sender: `late${tag()}@example.com` }),
      from(ip),
    )
    expectTooMany(page, false)
    expect(page.text).not.toContain('Thank you!')
  })
})

describe('invites', () => {
  it('50 per account across the API and the settings page; other settings actions are not limited', async () => {
    const owner = await newUser()
    const sends = Array.from({ length: 50 }, (_, i) =>
      i % 2
        ? owner.client.post('/v1/invites', { email: `guest${i}@example.com` }, from(newIp()))
        : owner.client.post(
            `/${owner.workspaceName}/settings`,
            form({ intent: 'invite', email: `guest${i}@example.com`, level: 'VIEWER' }),
            from(newIp()),
          ),
    )
    expect((await Promise.all(sends)).map((r) => r.status).sort()).toEqual([
      ...Array(25).fill(200),
      ...Array(25).fill(302),
    ])
    expectTooMany(await owner.client.post('/v1/invites', { email: 'late@example.com' }, from(newIp())))
    const page = await owner.client.post(
      `/${owner.workspaceName}/settings`,
      form({ intent: 'invite', email: 'late@example.com', level: 'VIEWER' }),
      from(newIp()),
    )
    expectTooMany(page, false)
    // The settings page itself answers, with the message in its invite form.
    expect(page.text).toContain('Too many attempts. Please try again in')
    expect(page.text).toContain('Workspace invites')
    const invites = (await owner.client.get('/v1/invites')).json as { id: string; email: string }[]
    expect(invites).toHaveLength(50)
    const cancel = await owner.client.post(
      `/${owner.workspaceName}/settings`,
      form({ intent: 'cancelInvite', id: invites[0].id }),
    )
    expect(cancel.status).toBe(302)
    // A second intent field does not smuggle an invite past the counter.
    const smuggled = await owner.client.post(
      `/${owner.workspaceName}/settings`,
      'intent=invite&intent=cancelInvite&email=smuggled%40example.com',
      { 'Content-Type': 'application/x-www-form-urlencoded' },
    )
    expect(smuggled.status).toBe(429)
  })
})

describe('API tokens', () => {
  it('120 requests a minute per token, then 429 with Retry-After; another token and the session go on', async () => {
    const owner = await newUser()
    const make = async () =>
      (
        await owner.client.post('/v1/account/tokens', {
          name: 'Busy script',
          workspaceId: owner.client.workspaceId,
          scope: 'read',
        })
      ).json.secret as string
    const [busy, quiet] = [await make(), await make()]
    const script = new Client(server.url)
    const get = (secret: string) =>
      script.request('GET', '/v1/projects', undefined, { Authorization: `Bearer ${secret}` })
    const statuses = await Promise.all(Array.from({ length: 120 }, () => get(busy).then((r) => r.status)))
    expect(statuses.every((s) => s === 200)).toBe(true)
    const limited = await get(busy)
    expect(limited.status).toBe(429)
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
    expect((await get(quiet)).status).toBe(200)
    expect((await owner.client.get('/v1/projects')).status).toBe(200)
  })
})
