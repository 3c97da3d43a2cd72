import http from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeBoard } from '../support/board'
import { Client, signUp } from '../support/client'
import { startServer, type RunningServer } from '../support/server'
import { warningsSince } from '../support/server-log'

/**
 * Issue 43: a reverse proxy in front of the server. The test talks to the server's own address,
 * as nginx does without `proxy_set_header Host` (the Host is the upstream's), while the browser's
 * Origin is the public address, BASE_URL. Rate limits are on: a refused try must not spend the
 * account's log-ins. The server listens on every interface with BASE_URL set: no start warning.
 */
const PUBLIC = 'https://maps.acme.io'
const ORIGIN = { Origin: PUBLIC }
let server: RunningServer
beforeAll(async () => {
  server = await startServer({ BASE_URL: PUBLIC, HOST: '0.0.0.0', RATE_LIMIT: 'on' })
})
afterAll(async () => {
  await server?.stop()
})

let ipCounter = 0
/** The server believes X-Forwarded-For from loopback: each test speaks from its own address. */
const from = (ip = `198.51.100.${++ipCounter}`) => ({ 'X-Forwarded-For': ip })
const form = (fields: Record<string, string>) => new URLSearchParams(fields)
const sessionOf = (client: Client) => client.cookies.get('storymap_session')

/** A request with a Host of our choosing (fetch always sends the address it connects to). */
function requestWithHost(path: string, headers: Record<string, string>, body: string) {
  return new Promise<{ status: number; setCookie: string[] }>((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port: server.port, path, method: 'POST', headers },
      (res) => {
        res.resume()
        res.on('end', () => resolve({ status: res.statusCode!, setCookie: res.headers['set-cookie'] ?? [] }))
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

describe('behind a proxy that rewrites Host', () => {
  it('gives no start warning when BASE_URL is set, even listening on every interface', async () => {
    expect(await warningsSince(server)).toEqual([])
  })

  it('logs in through the page form, its data request and the API, and writes, with Origin = BASE_URL', async () => {
    const user = await signUp(server.url)
    const credentials = { email: user.email, password: user.password }

    // The form without JavaScript: a redirect and a session.
    const page = new Client(server.url)
    const posted = await page.post('/account/login', form(credentials), { ...ORIGIN, ...from() })
    expect(posted.status).toBe(302)
    expect(sessionOf(page)).toBeTruthy()

    // The same form sent by the router in the browser (the request that answered 400 in the trial).
    const data = new Client(server.url)
    const fetched = await data.post('/account/login.data', form(credentials), { ...ORIGIN, ...from() })
    expect(fetched.status).toBe(202)
    expect(fetched.text).not.toContain('Something went wrong')
    expect(sessionOf(data)).toBeTruthy()

    // A TLS proxy that passes `Host $host` but no X-Forwarded-Proto: the server sees http://maps.acme.io.
    const tls = await requestWithHost(
      '/account/login.data',
      { ...ORIGIN, ...from(), Host: 'maps.acme.io', 'Content-Type': 'application/x-www-form-urlencoded' },
      form(credentials).toString(),
    )
    expect(tls.status).toBe(202)
    expect(
      tls.setCookie.some((c) => c.startsWith('storymap_session=') && !c.startsWith('storymap_session=;')),
    ).toBe(true)

    const api = new Client(server.url)
    expect((await api.post('/v1/users/login', credentials, { ...ORIGIN, ...from() })).status).toBe(200)
    api.workspaceId = user.workspaceId
    const ids = await makeBoard(user.client)
    const renamed = await api.post(
      `/v1/projects/${ids.project}/rename`,
      { title: 'Through the proxy' },
      ORIGIN,
    )
    expect(renamed.status).toBe(200)
    expect(renamed.json.title).toBe('Through the proxy')
  })

  it('refuses a truly foreign Origin with 403 and one warning line naming the mismatch and the fix', async () => {
    const user = await signUp(server.url)
    const ids = await makeBoard(user.client)
    const mark = server.output().length
    const refused = await user.client.post(
      `/v1/projects/${ids.project}/rename`,
      { title: 'Pwned' },
      { Origin: 'https://evil.example' },
    )
    expect(refused.status).toBe(403)
    expect(refused.json).toEqual({ error: 'cross_origin', message: 'Cross-site requests are not allowed.' })
    expect(await warningsSince(server, mark)).toEqual([
      'Origin https://evil.example does not match BASE_URL https://maps.acme.io: set BASE_URL to the address users open',
    ])
    // The scheme is part of the origin: the public address over plain http is another site.
    const downgraded = await user.client.post(
      `/v1/projects/${ids.project}/rename`,
      { title: 'Pwned' },
      { Origin: 'http://maps.acme.io' },
    )
    expect(downgraded.status).toBe(403)
    expect((await user.client.get(`/v1/projects/${ids.project}`)).json.project.title).not.toBe('Pwned')
  })

  it('does not count refused log-ins, nor ones that came through the proxy, against the log-in limits', async () => {
    const user = await signUp(server.url)
    const credentials = { email: user.email, password: user.password }
    const wrong = { email: user.email, password: 'wrong-password' }
    const ip = from()
    // Ten log-ins through the proxy (they were ten refusals before the fix) ...
    for (let i = 0; i < 10; i++) {
      const res = await new Client(server.url).post('/account/login.data', form(credentials), {
        ...ORIGIN,
        ...ip,
      })
      expect(res.status).toBe(202)
    }
    // ... and ten from a foreign page, on each way in.
    const foreign = { Origin: 'https://evil.example', ...ip }
    for (let i = 0; i < 4; i++) {
      const refusals = await Promise.all([
        new Client(server.url).post('/account/login', form(wrong), foreign),
        new Client(server.url).post('/account/login.data', form(wrong), foreign),
        new Client(server.url).post('/v1/users/login', wrong, foreign),
      ])
      expect(refusals.map((r) => r.status)).toEqual([403, 403, 403])
    }
    // The account still has its ten failures: nine wrong passwords are told so, then the right one works.
    for (let i = 0; i < 9; i++) {
      const res = await new Client(server.url).post('/v1/users/login', wrong, { ...ORIGIN, ...ip })
      expect(res.json?.error).toBe('login_failed')
    }
    const last = new Client(server.url)
    expect((await last.post('/v1/users/login', credentials, { ...ORIGIN, ...ip })).status).toBe(200)
    expect(sessionOf(last)).toBeTruthy()
  })
})
