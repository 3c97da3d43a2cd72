import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bundle, makeBoard, uuid } from '../support/board'
import { Client, signUp } from '../support/client'
import { linkIn, startMailbox } from '../support/mailbox'
import { startServer, type RunningServer } from '../support/server'

/** Browser-side attacks (issue #7): forged cross-site writes, framing, script injection, stolen or planted sessions, bots. */
const BASE = 'http://storymap.test'
let server: RunningServer
let mailbox: Awaited<ReturnType<typeof startMailbox>>
beforeAll(async () => {
  mailbox = await startMailbox()
  server = await startServer({ SMTP_URL: mailbox.url, BASE_URL: BASE, CONTACT_EMAIL: 'team@storymap.test' })
})
afterAll(async () => {
  await server?.stop()
  await mailbox?.close()
})

const form = (fields: Record<string, string>) => new URLSearchParams(fields)
const EVIL = { Origin: 'https://evil.example' }

describe('cross-site request forgery', () => {
  it('refuses a cross-origin POST to the API and to pages, changing nothing', async () => {
    const owner = await signUp(server.url)
    const ids = await makeBoard(owner.client)
    const before = await bundle(owner.client, ids.project)
    const attempts = [
      owner.client.post(`/v1/projects/${ids.project}/rename`, { title: 'Pwned' }, EVIL),
      owner.client.delete(`/v1/features/${ids.feature}`, EVIL),
      owner.client.post(`/v1/projects/${ids.project}/rename`, { title: 'Pwned' }, { Origin: 'null' }),
      // A browser that sends no Origin still reveals a cross-site request.
      owner.client.post(
        `/v1/projects/${ids.project}/rename`,
        { title: 'Pwned' },
        { 'Sec-Fetch-Site': 'cross-site' },
      ),
      owner.client.post(`/${owner.workspaceName}/settings`, form({ intent: 'deleteWorkspace' }), EVIL),
      owner.client.post('/account/settings', form({ intent: 'delete' }), EVIL),
      new Client(server.url).post(
        '/account/login',
        form({ email: owner.email, password: owner.password }),
        EVIL,
      ),
    ]
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(403)
      expect(res.text).toContain('Cross-site requests are not allowed.')
    }
    expect(await bundle(owner.client, ids.project)).toEqual(before)
    expect((await owner.client.get(`/${owner.workspaceName}/settings`)).status).toBe(200)
    // The same requests from the app's own origin go through.
    const same = await owner.client.post(
      `/v1/projects/${ids.project}/rename`,
      { title: 'Fine' },
      { Origin: BASE },
    )
    expect(same.status).toBe(200)
  })

  it('exempts only the Stripe webhook, which no browser session can drive', async () => {
    const res = await new Client(server.url).post('/v1/subscription/webhook', {}, EVIL)
    expect(res.status).not.toBe(403)
    expect(res.headers.get('content-type')).toContain('application/json')
  })

  it('session cookies are HttpOnly and SameSite=Lax', async () => {
    const res = await new Client(server.url).post('/v1/users/signup', {
      workspaceName: `ws${Date.now()}`,
      name: 'C',
      email: `cookie${Date.now()}@example.com`,
      password: 'correct-horse',
    })
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('storymap_session='))!
    expect(cookie).toMatch(/HttpOnly/i)
    expect(cookie).toMatch(/SameSite=Lax/i)
    expect(cookie).toMatch(/Path=\//)
  })
})

describe('security headers', () => {
  it('every page has a CSP whose nonce is on each of its scripts, refuses framing and sniffing', async () => {
    const owner = await signUp(server.url)
    const ids = await makeBoard(owner.client)
    const pages = [
      { client: new Client(server.url), path: '/account/login' },
      { client: owner.client, path: `/${owner.workspaceName}` },
      { client: owner.client, path: `/${owner.workspaceName}/projects/${ids.project}/f/${ids.feature}` },
      { client: new Client(server.url), path: '/no/such/page' },
    ]
    const nonces = new Set<string>()
    for (const { client, path } of pages) {
      const res = await client.get(path)
      const csp = res.headers.get('content-security-policy') ?? ''
      expect([path, csp]).toEqual([path, expect.stringContaining("frame-ancestors 'none'")])
      expect(csp).toContain("default-src 'self'")
      expect(csp).toContain("object-src 'none'")
      const nonce = /'nonce-([^']+)'/.exec(csp)![1]
      nonces.add(nonce)
      const scripts = res.text.match(/<script\b[^>]*>/g) ?? []
      expect(scripts.length).toBeGreaterThan(0)
      for (const tag of scripts)
        expect([path, tag]).toEqual([path, expect.stringContaining(`nonce="${nonce}"`)])
      expect(res.headers.get('x-content-type-options')).toBe('nosniff')
      expect(res.headers.get('x-frame-options')).toBe('DENY')
      expect(res.headers.get('referrer-policy')).toBe('same-origin')
    }
    expect(nonces.size).toBe(pages.length)
    const api = await owner.client.get('/v1/account/app')
    expect(api.headers.get('x-content-type-options')).toBe('nosniff')
  })
})

describe('script injection', () => {
  const SCRIPT = '<script>alert(1)</script>'
  const IMG = '<img src=x onerror=alert(2)>'
  it('a <script> in a title, description, comment or persona is shown as text', async () => {
    const owner = await signUp(server.url)
    const ids = await makeBoard(owner.client)
    const c = owner.client
    await c.post(`/v1/projects/${ids.project}/rename`, { title: `Map ${SCRIPT}` })
    await c.post(`/v1/features/${ids.feature}/rename`, { title: `Feature ${SCRIPT}` })
    const markdown = `Text ${SCRIPT} ${IMG} [link](javascript:alert(3)) <a href="javascript:alert(4)">a</a>`
    await c.post(`/v1/features/${ids.feature}/description`, { description: markdown })
    await c.post(`/v1/featurecomments/${uuid()}`, { featureId: ids.feature, post: `Comment ${SCRIPT}` })
    await c.put(`/v1/personas/${ids.persona}`, {
      avatar: 'avatar01',
      name: `Pat ${SCRIPT}`,
      role: `Role ${IMG}`,
      description: `About ${SCRIPT}`,
    })
    const b = await bundle(c, ids.project)
    const pages = [
      `/${owner.workspaceName}`,
      `/${owner.workspaceName}/projects/${ids.project}`,
      `/${owner.workspaceName}/projects/${ids.project}/f/${ids.feature}`,
      `/${owner.workspaceName}/projects/${ids.project}/p/${ids.project}`,
      `/link/${b.project.externalLink}/f/${ids.feature}`,
    ]
    for (const path of pages) {
      const client = path.startsWith('/link/') ? new Client(server.url) : c
      const res = await client.get(path)
      expect([path, res.status]).toEqual([path, 200])
      expect([path, /<script>alert/i.test(res.text)]).toEqual([path, false])
      expect([path, /<img[^>]*onerror/i.test(res.text)]).toEqual([path, false])
      expect([path, /href="javascript:/i.test(res.text)]).toEqual([path, false])
      expect(res.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
    }
    const dialog = await c.get(`/${owner.workspaceName}/projects/${ids.project}/f/${ids.feature}`)
    const shown = dialog.text.replaceAll('<!-- -->', '') // React's markers between text pieces
    expect(shown).toContain(`Feature &lt;script&gt;alert(1)&lt;/script&gt;`)
    expect(shown).toContain(`Comment &lt;script&gt;alert(1)&lt;/script&gt;`)
    expect(shown).toContain(
      '<p>Text &lt;script&gt;alert(1)&lt;/script&gt; &lt;img src=x onerror=alert(2)&gt;',
    )
    expect(shown).toContain('<a href="">link</a>')
  })
})

describe('sessions', () => {
  it('a session id planted before log-in is worthless after it (API and page)', async () => {
    const victim = await signUp(server.url)
    for (const path of ['/v1/users/login', '/account/login']) {
      const attacker = new Client(server.url)
      const attackerLogin = await attacker.post('/v1/users/login', {
        email: victim.email,
        password: victim.password,
      })
      expect(attackerLogin.status).toBe(200)
      const planted = attacker.cookies.get('storymap_session')!
      const browser = new Client(server.url)
      browser.cookies.set('storymap_session', planted)
      const body = { email: victim.email, password: victim.password }
      const res = await browser.post(path, path.startsWith('/v1') ? body : form(body))
      expect(res.status).toBe(path.startsWith('/v1') ? 200 : 302)
      expect(browser.cookies.get('storymap_session')).not.toBe(planted)
      expect((await attacker.get('/v1/account/app')).status).toBe(401)
      expect((await browser.get('/v1/account/app')).status).toBe(200)
    }
  })

  it('logging out on the page ends the session everywhere; a forged log-out link does not', async () => {
    const user = await signUp(server.url)
    const forged = await user.client.get('/account/logout', { 'Sec-Fetch-Site': 'cross-site' })
    expect(forged.status).toBe(302)
    expect((await user.client.get('/v1/account/app')).status).toBe(200)
    const copy = new Client(server.url)
    copy.cookies = new Map(user.client.cookies)
    expect((await user.client.post('/account/logout', form({}))).status).toBe(302)
    expect((await copy.get('/v1/account/app')).status).toBe(401)
  })

  it('a reset link works once on the page, and ends the old sessions', async () => {
    const user = await signUp(server.url)
    const since = mailbox.mails.length
    await new Client(server.url).post('/account/reset', form({ email: user.email }))
    const link = linkIn(await mailbox.waitFor(user.email, since), `${BASE}/account/reset/`)
    const path = link.slice(BASE.length)
    const first = await new Client(server.url).post(path, form({ password: 'brand-new-pw' }))
    expect(first.status).toBe(302)
    expect((await user.client.get('/v1/account/app')).status).toBe(401)
    const second = await new Client(server.url).post(path, form({ password: 'other-new-pw' }))
    expect(second.status).toBe(200)
    expect(second.text).toContain('This link is invalid or has expired.')
    const login = await new Client(server.url).post('/v1/users/login', {
      email: user.email,
      password: 'other-new-pw',
    })
    expect(login.status).toBe(401)
  })
})

describe('honeypot', () => {
  it('every public form carries the hidden field', async () => {
    for (const path of ['/account/login', '/account/signup', '/account/reset', '/account/contact']) {
      const res = await new Client(server.url).get(path)
      expect([path, /<div aria-hidden="true"[^>]*><label for="sm_trap">/.test(res.text)]).toEqual([
        path,
        true,
      ])
      expect(res.text).toMatch(
        /<input id="sm_trap" name="sm_trap" type="text" tabindex="-1" autoComplete="off"/,
      )
    }
  })

  it('a filled honeypot is refused and nothing happens', async () => {
    const user = await signUp(server.url)
    const trap = { sm_trap: 'https://spam.example' }
    const since = mailbox.mails.length
    const newEmail = `bot${Date.now()}@example.com`
    const posts = [
      ['/account/login', { email: user.email, password: user.password }],
      [
        '/account/signup',
        { workspaceName: `bot${Date.now()}`, name: 'Bot', email: newEmail, password: 'bot-password' },
      ],
      ['/account/reset', { email: user.email }],
      ['/account/contact', { topic: 'general', body: 'Buy now', sender: 'bot@example.com' }],
    ] as const
    for (const [path, fields] of posts) {
      const client = new Client(server.url)
      const res = await client.post(path, form({ ...fields, ...trap }))
      expect([path, res.status]).toEqual([path, 400])
      expect(res.text).toContain('Your form could not be sent. Please try again.')
      expect(client.cookies.has('storymap_session')).toBe(false)
    }
    expect(
      (await new Client(server.url).post('/v1/users/login', { email: newEmail, password: 'bot-password' }))
        .status,
    ).toBe(401)
    // The real reset afterwards is the first mail since: the trapped reset and contact sent nothing.
    await new Client(server.url).post(`/v1/users/reset/${user.email}`)
    const mail = await mailbox.waitFor(user.email, since)
    expect(mailbox.mails.slice(since)).toEqual([mail])
  })
})
