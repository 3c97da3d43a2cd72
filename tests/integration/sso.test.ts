import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client, signUp } from '../support/client'
import { linkIn, startMailbox } from '../support/mailbox'
import {
  freePort,
  SsoBrowser,
  type IdTokenForgery,
  startProvider,
  TEST_CLIENT,
  type TestProvider,
} from '../support/oidc-provider'
import { startServer, type RunningServer } from '../support/server'

/**
 * Single sign-on (CONTRACT §11) against a real OpenID Provider on loopback (oidc-provider, with
 * its development log-in and consent pages): the app under test is the built server.
 */
const NAME = 'TestIdP'
const FAILED = `Sign-in with ${NAME} failed. Try again.`

let provider: TestProvider
let server: RunningServer
let mailbox: Awaited<ReturnType<typeof startMailbox>>
let appUrl: string

beforeAll(async () => {
  const port = await freePort()
  appUrl = `http://127.0.0.1:${port}`
  provider = await startProvider(appUrl)
  mailbox = await startMailbox()
  server = await startServer({
    PORT: String(port),
    BASE_URL: appUrl,
    SMTP_URL: mailbox.url,
    OIDC_ISSUER: provider.issuer,
    OIDC_CLIENT_ID: TEST_CLIENT.id,
    OIDC_CLIENT_SECRET: TEST_CLIENT.secret,
    OIDC_NAME: NAME,
  })
})
afterAll(async () => {
  await server?.stop()
  await provider?.close()
  await mailbox?.close()
})

const tag = () => crypto.randomUUID().slice(0, 8)

function query<T>(dbPath: string, sql: string, ...args: unknown[]): T {
  const db = new Database(dbPath, { readonly: true })
  try {
    return db.prepare(sql).get(...args) as T
  } finally {
    db.close()
  }
}
const count = (table: string, where = '1 = 1', ...args: unknown[]) =>
  query<{ n: number }>(server.dbPath, `select count(*) as n from ${table} where ${where}`, ...args).n

/** Rows that a failed sign-in must leave alone. */
const snapshot = () => ({
  accounts: count('accounts'),
  identities: count('oidc_identities'),
  sessions: count('sessions'),
  workspaces: count('workspaces'),
  members: count('members'),
})

/** A new person at the provider; returns their login (= sub). */
function person(identity: { email?: string; email_verified?: boolean; name?: string }) {
  const sub = `sub-${tag()}`
  provider.identities.set(sub, identity)
  return sub
}

/** What the log-in page says after a failed sign-in (once). */
async function loginNotice(browser: SsoBrowser) {
  const page = await browser.app.get('/account/login')
  expect(page.status).toBe(200)
  return page.text
}

async function expectFailedWith(
  browser: SsoBrowser,
  answer: { status: number; headers: Headers },
  text: string,
) {
  expect(answer.status).toBe(302)
  expect(answer.headers.get('location')).toBe('/account/login')
  expect(await loginNotice(browser)).toContain(text)
  expect((await browser.app.get('/v1/account/app')).status).toBe(401)
}

describe('the button', () => {
  it('is a plain link to /account/oidc/start on the log-in and sign-up pages', async () => {
    const client = new Client(appUrl)
    for (const path of ['/account/login', '/account/signup']) {
      const page = await client.get(path)
      expect(page.text).toMatch(
        new RegExp(`<a [^>]*href="/account/oidc/start"[^>]*>Sign in with ${NAME}</a>`),
      )
      expect(page.text).toContain('name="password"')
    }
  })

  it('sends the browser to the provider with the code flow, PKCE S256, state and nonce', async () => {
    const browser = new SsoBrowser(appUrl, provider)
    const auth = await browser.start()
    expect(auth.origin).toBe(provider.issuer)
    const p = auth.searchParams
    expect(p.get('response_type')).toBe('code')
    expect(p.get('client_id')).toBe(TEST_CLIENT.id)
    expect(p.get('redirect_uri')).toBe(`${appUrl}/account/oidc/callback`)
    expect(p.get('scope')).toBe('openid email profile')
    expect(p.get('code_challenge_method')).toBe('S256')
    expect(p.get('code_challenge')).toMatch(/^[\w-]{43}$/)
    expect(p.get('state')!.length).toBeGreaterThanOrEqual(32)
    expect(p.get('nonce')!.length).toBeGreaterThanOrEqual(32)
    // The flow's secrets stay with this browser, in an HttpOnly cookie; none is in the URL but the state.
    expect([...browser.app.cookies.keys()]).toContain('storymap_oidc_flow')
  })
})

describe('signing in', () => {
  it('creates a new account with its first workspace, the e-mail verified, when sign-up is open', async () => {
    const local = `Nina.${tag()}`
    const email = `${local}+maps@example.com`
    const sub = person({ email, email_verified: true, name: 'Nina New' })
    const browser = new SsoBrowser(appUrl, provider)
    const landing = await browser.signIn(sub)
    const workspace = local.toLowerCase().replace(/[^a-z0-9]/g, '')
    expect(landing).toBe(`/${workspace}`)
    const app = await browser.app.get('/v1/account/app')
    expect(app.status).toBe(200)
    expect(app.json.account).toMatchObject({
      name: 'Nina New',
      email: email.toLowerCase(),
      emailConfirmed: true,
    })
    expect(app.json.workspaces.map((w: { name: string }) => w.name)).toEqual([workspace])
    expect(app.json.memberships[0].level).toBe('OWNER')
    expect(count('oidc_identities', 'subject = ?', sub)).toBe(1)
    // No password: password log-in with anything is refused like a wrong password.
    const login = await new Client(appUrl).post('/v1/users/login', { email, password: 'anything-at-all' })
    expect(login.status).toBe(401)
  })

  it('names the next workspace from the same local part uniquely', async () => {
    const local = `dup${tag()}`
    const first = person({ email: `${local}@one.example`, email_verified: true })
    const second = person({ email: `${local}@two.example`, email_verified: true })
    expect(await new SsoBrowser(appUrl, provider).signIn(first)).toBe(`/${local}`)
    expect(await new SsoBrowser(appUrl, provider).signIn(second)).toBe(`/${local}2`)
  })

  it('signs a returning person into the same account, in a new server-side session', async () => {
    const sub = person({ email: `back${tag()}@example.com`, email_verified: true, name: 'Bo Back' })
    const first = new SsoBrowser(appUrl, provider)
    await first.signIn(sub)
    const id = (await first.app.get('/v1/account/app')).json.account.id
    // The theme chosen in one browser follows the account into the next (CONTRACT §12).
    await first.app.post('/account/theme', new URLSearchParams({ theme: 'dark', redirectTo: '/' }), {
      Origin: appUrl,
    })
    const before = snapshot()
    const again = new SsoBrowser(appUrl, provider)
    expect(await again.signIn(sub)).toBe('/')
    expect((await again.app.get('/v1/account/app')).json.account.id).toBe(id)
    // The first page shows it, and its cookie keeps it for the log-in page after a log-out.
    expect((await again.app.get('/account/settings')).text).toMatch(/<html[^>]*data-theme="dark"/)
    expect(again.app.cookies.get('storymap_theme')).toContain(
      Buffer.from('"dark"').toString('base64').replace(/=+$/, ''),
    )
    expect(snapshot()).toEqual({ ...before, sessions: before.sessions + 1 })
    // The same sessions as a password log-in: logging out ends it on the server.
    expect((await again.app.post('/v1/users/logout')).status).toBe(200)
    expect((await again.app.get('/v1/account/app')).status).toBe(401)
  })

  it('goes back to where the log-in page was asked to', async () => {
    const sub = person({ email: `to${tag()}@example.com`, email_verified: true })
    const browser = new SsoBrowser(appUrl, provider)
    await browser.signIn(sub)
    const next = new SsoBrowser(appUrl, provider)
    const back = await next.authorize(await next.start('?redirectTo=%2Faccount%2Fsettings'), sub)
    expect((await next.callback(back)).headers.get('location')).toBe('/account/settings')
  })
})

describe('linking an existing account', () => {
  it('links the account with the verified e-mail (any case), and settings show the identity', async () => {
    const owner = await signUp(appUrl)
    // The address is confirmed: the password stays, and the identity may be unlinked.
    const db = new Database(server.dbPath)
    db.prepare('update accounts set email_confirmed = 1 where email = ?').run(owner.email)
    db.close()
    const sub = person({ email: owner.email.toUpperCase(), email_verified: true, name: 'Someone Else' })
    const browser = new SsoBrowser(appUrl, provider)
    const before = snapshot()
    expect(await browser.signIn(sub)).toBe('/')
    const app = await browser.app.get('/v1/account/app')
    expect(app.json.account.id).toBe(owner.account.id)
    expect(app.json.account.name).toBe(owner.name)
    expect(snapshot()).toEqual({
      ...before,
      identities: before.identities + 1,
      sessions: before.sessions + 1,
    })

    const settings = await browser.app.get('/account/settings')
    expect(settings.text).toContain(`Signed in with ${NAME} as ${owner.email.toUpperCase().toLowerCase()}`)
    expect(settings.text).toMatch(/value="unlinkSso"[^>]*>Unlink</)
    const login = await new Client(appUrl).post('/v1/users/login', {
      email: owner.email,
      password: owner.password,
    })
    expect(login.status).toBe(200)

    const unlink = await browser.app.post('/account/settings', new URLSearchParams({ intent: 'unlinkSso' }), {
      Origin: appUrl,
    })
    expect(unlink.status).toBe(302)
    expect(count('oidc_identities', 'subject = ?', sub)).toBe(0)
    expect((await browser.app.get('/account/settings')).text).not.toContain(`Signed in with ${NAME} as`)
  })

  it('shows the account’s theme after a single sign-on (the log-in form never ran)', async () => {
    const owner = await signUp(appUrl)
    const chose = await owner.client.post(
      '/account/theme',
      new URLSearchParams({ theme: 'dark', redirectTo: '/' }),
      { Origin: appUrl },
    )
    expect(chose.status).toBe(302)
    const db = new Database(server.dbPath)
    db.prepare('update accounts set email_confirmed = 1 where email = ?').run(owner.email)
    db.close()
    const sub = person({ email: owner.email, email_verified: true })
    const browser = new SsoBrowser(appUrl, provider)
    await browser.signIn(sub)
    const page = await browser.app.get(`/${owner.workspaceName}`)
    expect(page.text).toMatch(/<html[^>]*data-theme="dark"/)
  })

  it('drops the password of an account whose address was never confirmed, and ends its sessions', async () => {
    const squatter = await signUp(appUrl)
    const sub = person({ email: squatter.email, email_verified: true })
    const browser = new SsoBrowser(appUrl, provider)
    await browser.signIn(sub)
    expect((await browser.app.get('/v1/account/app')).json.account).toMatchObject({
      id: squatter.account.id,
      emailConfirmed: true,
    })
    expect((await squatter.client.get('/v1/account/app')).status).toBe(401)
    const login = await new Client(appUrl).post('/v1/users/login', {
      email: squatter.email,
      password: squatter.password,
    })
    expect(login.status).toBe(401)
    // Without a password the identity cannot be unlinked.
    const settings = await browser.app.get('/account/settings')
    expect(settings.text).toContain(`Signed in with ${NAME} as ${squatter.email}`)
    expect(settings.text).not.toContain('value="unlinkSso"')
    expect(settings.text).toContain('Set a password')
  })

  it('never links on an unverified e-mail: the log-in page says so and nothing is created', async () => {
    const owner = await signUp(appUrl)
    const sub = person({ email: owner.email, email_verified: false })
    const browser = new SsoBrowser(appUrl, provider)
    const before = snapshot()
    const answer = await browser.callback(await browser.authorize(await browser.start(), sub))
    await expectFailedWith(browser, answer, `Sign-in with ${NAME} failed: ${owner.email} is not verified.`)
    expect(snapshot()).toEqual(before)
    // Shown once.
    expect(await loginNotice(browser)).not.toContain('is not verified')
  })

  it('refuses an unverified e-mail of nobody too, creating nothing', async () => {
    const email = `nobody${tag()}@example.com`
    const sub = person({ email })
    const browser = new SsoBrowser(appUrl, provider)
    const before = snapshot()
    const answer = await browser.callback(await browser.authorize(await browser.start(), sub))
    await expectFailedWith(browser, answer, `Sign-in with ${NAME} failed: ${email} is not verified.`)
    expect(snapshot()).toEqual(before)
  })
})

describe('invitations', () => {
  it('a new person with a pending invitation joins that workspace only, and the invitation is used up', async () => {
    const owner = await signUp(appUrl)
    const email = `invited${tag()}@example.com`
    const since = mailbox.mails.length
    expect((await owner.client.post('/v1/invites', { email, level: 'VIEWER' })).status).toBe(200)
    linkIn(await mailbox.waitFor(email, since), `${appUrl}/account/invitation/`)
    const sub = person({ email, email_verified: true, name: 'Ivy Invited' })
    const browser = new SsoBrowser(appUrl, provider)
    const workspaces = count('workspaces')
    expect(await browser.signIn(sub)).toBe(`/${owner.workspaceName}`)
    const app = await browser.app.get('/v1/account/app')
    expect(app.json.workspaces.map((w: { name: string }) => w.name)).toEqual([owner.workspaceName])
    expect(app.json.memberships[0].level).toBe('VIEWER')
    expect(count('workspaces')).toBe(workspaces)
    expect(count('invites', 'email = ?', email)).toBe(0)
    const landing = await browser.app.get(`/${owner.workspaceName}`)
    expect(landing.text).toContain('Invitation accepted.')
  })
})

describe('every failed check shows the failure text and creates nothing', () => {
  it('a tampered state', async () => {
    const sub = person({ email: `state${tag()}@example.com`, email_verified: true })
    const browser = new SsoBrowser(appUrl, provider)
    const back = await browser.authorize(await browser.start(), sub)
    back.searchParams.set('state', `${back.searchParams.get('state')}x`)
    const before = snapshot()
    await expectFailedWith(browser, await browser.callback(back), FAILED)
    expect(snapshot()).toEqual(before)
  })

  it('a callback without the browser that started the sign-in (another browser’s state)', async () => {
    const sub = person({ email: `csrf${tag()}@example.com`, email_verified: true })
    const attacker = new SsoBrowser(appUrl, provider)
    const back = await attacker.authorize(await attacker.start(), sub)
    const victim = new SsoBrowser(appUrl, provider)
    await victim.start() // the victim has a sign-in of their own under way
    const before = snapshot()
    await expectFailedWith(victim, await victim.callback(back), FAILED)
    const stranger = new SsoBrowser(appUrl, provider)
    await expectFailedWith(stranger, await stranger.callback(back), FAILED)
    expect(snapshot()).toEqual(before)
  })

  it('a replayed callback, even with the flow cookie put back', async () => {
    const sub = person({ email: `replay${tag()}@example.com`, email_verified: true })
    const browser = new SsoBrowser(appUrl, provider)
    const back = await browser.authorize(await browser.start(), sub)
    const flow = browser.app.cookies.get('storymap_oidc_flow')!
    expect((await browser.callback(back)).status).toBe(302)
    expect(browser.app.cookies.has('storymap_oidc_flow')).toBe(false)
    const replay = new SsoBrowser(appUrl, provider)
    replay.app.cookies.set('storymap_oidc_flow', flow)
    const before = snapshot()
    await expectFailedWith(replay, await replay.callback(back), FAILED)
    expect(snapshot()).toEqual(before)
    expect(server.output()).toContain('this sign-in was already finished once')
  })

  it('an ID token with another nonce than this browser’s', async () => {
    const sub = person({ email: `nonce${tag()}@example.com`, email_verified: true })
    const browser = new SsoBrowser(appUrl, provider)
    const auth = await browser.start()
    auth.searchParams.set('nonce', 'a-nonce-this-browser-never-sent-0123456789')
    const back = await browser.authorize(auth, sub)
    expect(back.searchParams.get('code')).toBeTruthy()
    const before = snapshot()
    await expectFailedWith(browser, await browser.callback(back), FAILED)
    expect(snapshot()).toEqual(before)
    expect(server.output()).toContain('unexpected ID Token \\"nonce\\" claim value')
  })

  describe('a forged ID token (its signature is checked against the provider’s keys)', () => {
    /** A victim with an account the forger wants: linked to the provider, with a confirmed address. */
    async function victim() {
      const owner = await signUp(appUrl)
      const db = new Database(server.dbPath)
      db.prepare('update accounts set email_confirmed = 1 where email = ?').run(owner.email)
      db.close()
      const sub = person({ email: owner.email, email_verified: true })
      await new SsoBrowser(appUrl, provider).signIn(sub)
      return { ...owner, sub }
    }

    // The victim's subject and e-mail in the ID token (so no UserInfo call could catch the swap).
    type Claims = Record<string, unknown>
    const forgeries: [string, (claims: Claims) => IdTokenForgery][] = [
      ['claims changed after signing (another sub)', (claims: Claims) => ({ kind: 'claims', claims })],
      ['alg: none', (claims: Claims) => ({ kind: 'alg-none', claims })],
      [
        'signed with a key the provider never published',
        (claims: Claims) => ({ kind: 'unknown-key', kid: 'stranger', claims }),
      ],
      [
        'signed with another key under the provider’s kid',
        (claims: Claims) => ({ kind: 'unknown-key', kid: 'test', claims }),
      ],
    ]

    for (const [name, forge] of forgeries) {
      it(name, async () => {
        const target = await victim()
        const forger = person({ email: `forger${tag()}@example.com`, email_verified: true })
        const browser = new SsoBrowser(appUrl, provider)
        const back = await browser.authorize(await browser.start(), forger)
        provider.forgeNextIdToken(forge({ sub: target.sub, email: target.email, email_verified: true }))
        const before = snapshot()
        await expectFailedWith(browser, await browser.callback(back), FAILED)
        expect(snapshot()).toEqual(before)
      })
    }

    it('an e-mail changed after signing does not link the account with that e-mail', async () => {
      const target = await signUp(appUrl)
      const forger = person({ email: `forger${tag()}@example.com`, email_verified: true })
      const browser = new SsoBrowser(appUrl, provider)
      const back = await browser.authorize(await browser.start(), forger)
      provider.forgeNextIdToken({ kind: 'claims', claims: { email: target.email, email_verified: true } })
      const before = snapshot()
      await expectFailedWith(browser, await browser.callback(back), FAILED)
      expect(snapshot()).toEqual(before)
      // The victim's password still works: nothing was linked or dropped.
      const login = await new Client(appUrl).post('/v1/users/login', {
        email: target.email,
        password: target.password,
      })
      expect(login.status).toBe(200)
    })
  })

  it('a provider error (the person cancels at the provider: access_denied)', async () => {
    const sub = person({ email: `cancel${tag()}@example.com`, email_verified: true })
    const browser = new SsoBrowser(appUrl, provider)
    const back = await browser.authorize(await browser.start(), sub, { abort: true })
    expect(back.searchParams.get('error')).toBe('access_denied')
    const before = snapshot()
    await expectFailedWith(browser, await browser.callback(back), FAILED)
    expect(snapshot()).toEqual(before)
    expect(server.output()).toContain('access_denied')
  })

  it('a callback with no sign-in under way', async () => {
    const browser = new SsoBrowser(appUrl, provider)
    await expectFailedWith(browser, await browser.app.get('/account/oidc/callback?code=x&state=y'), FAILED)
  })
})

describe('OIDC_ONLY and invite-only sign-up', () => {
  let only: RunningServer
  let onlyUrl: string
  let onlyProvider: TestProvider
  let owner: Awaited<ReturnType<typeof signUp>>

  beforeAll(async () => {
    const port = await freePort()
    onlyUrl = `http://127.0.0.1:${port}`
    onlyProvider = await startProvider(onlyUrl)
    const sso = {
      PORT: String(port),
      BASE_URL: onlyUrl,
      OIDC_ISSUER: onlyProvider.issuer,
      OIDC_CLIENT_ID: TEST_CLIENT.id,
      OIDC_CLIENT_SECRET: TEST_CLIENT.secret,
      SMTP_URL: mailbox.url,
    }
    // The owner signs up with a password first; then the server allows single sign-on only.
    const first = await startServer(sso)
    owner = await signUp(onlyUrl)
    await first.stop()
    // Its address is confirmed, so linking it later keeps its password.
    const db = new Database(first.dbPath)
    db.prepare('update accounts set email_confirmed = 1 where email = ?').run(owner.email)
    db.close()
    only = await startServer({ ...sso, SIGNUP: 'invite-only', OIDC_ONLY: 'true' }, { dir: first.dir })
  })
  afterAll(async () => {
    await only?.stop()
    await onlyProvider?.close()
  })

  it('refuses password log-in and sign-up on the API with 403 password_login_disabled', async () => {
    const login = await new Client(onlyUrl).post('/v1/users/login', {
      email: owner.email,
      password: owner.password,
    })
    expect(login.status).toBe(403)
    expect(login.json.error).toBe('password_login_disabled')
    const signup = await new Client(onlyUrl).post('/v1/users/signup', {
      workspaceName: `w${tag()}`,
      name: 'N',
      email: `n${tag()}@example.com`,
      password: 'correct-horse',
    })
    expect(signup.status).toBe(403)
    expect(signup.json.error).toBe('password_login_disabled')
  })

  it('hides the password forms and refuses their posts', async () => {
    const client = new Client(onlyUrl)
    for (const path of ['/account/login', '/account/signup']) {
      const page = await client.get(path)
      expect(page.text).toContain('>Sign in with SSO</a>')
      expect(page.text).not.toContain('name="password"')
    }
    const posted = await client.post(
      '/account/login',
      new URLSearchParams({ email: owner.email, password: owner.password }),
      {
        Origin: onlyUrl,
      },
    )
    expect(posted.status).toBe(403)
    expect(client.cookies.has('storymap_session')).toBe(false)
  })

  it('tells a new person without an invitation to ask for one, creating nothing', async () => {
    const email = `stranger${tag()}@example.com`
    const sub = `sub-${tag()}`
    onlyProvider.identities.set(sub, { email, email_verified: true })
    const browser = new SsoBrowser(onlyUrl, onlyProvider)
    const accounts = query<{ n: number }>(only.dbPath, 'select count(*) as n from accounts').n
    const answer = await browser.callback(await browser.authorize(await browser.start(), sub))
    expect(answer.headers.get('location')).toBe('/account/login')
    expect(await loginNotice(browser)).toContain(`No account for ${email}. Ask for an invitation.`)
    expect(query<{ n: number }>(only.dbPath, 'select count(*) as n from accounts').n).toBe(accounts)
  })

  it('lets an invited person in, and signs the owner in by the verified e-mail', async () => {
    const email = `guest${tag()}@example.com`
    expect((await owner.client.post('/v1/invites', { email, level: 'EDITOR' })).status).toBe(200)
    const sub = `sub-${tag()}`
    onlyProvider.identities.set(sub, { email, email_verified: true, name: 'Gus Guest' })
    const guest = new SsoBrowser(onlyUrl, onlyProvider)
    expect(await guest.signIn(sub)).toBe(`/${owner.workspaceName}`)

    const ownerSub = `sub-${tag()}`
    onlyProvider.identities.set(ownerSub, { email: owner.email, email_verified: true })
    const browser = new SsoBrowser(onlyUrl, onlyProvider)
    await browser.signIn(ownerSub)
    expect((await browser.app.get('/v1/account/app')).json.account.id).toBe(owner.account.id)
  })
  it('keeps reset links for accounts that have a password, and makes none for those without', async () => {
    const email = `nopass${tag()}@example.com`
    expect((await owner.client.post('/v1/invites', { email, level: 'VIEWER' })).status).toBe(200)
    const sub = `sub-${tag()}`
    onlyProvider.identities.set(sub, { email, email_verified: true })
    await new SsoBrowser(onlyUrl, onlyProvider).signIn(sub)
    const client = new Client(onlyUrl)
    expect((await client.post(`/v1/users/reset/${encodeURIComponent(email)}`)).status).toBe(200)
    const keys = query<{ n: number }>(
      only.dbPath,
      "select count(*) as n from account_keys k join accounts a on a.id = k.account_id where a.email = ? and k.kind = 'reset'",
      email,
    ).n
    expect(keys).toBe(0)

    const since = mailbox.mails.length
    expect((await client.post(`/v1/users/reset/${encodeURIComponent(owner.email)}`)).status).toBe(200)
    const link = linkIn(await mailbox.waitFor(owner.email, since), `${onlyUrl}/account/reset/`)
    const key = link.slice(link.lastIndexOf('/') + 1)
    expect((await client.post('/v1/users/setpassword', { key, password: 'a-new-password' })).status).toBe(200)
  })
})

describe('an unreachable provider', () => {
  it('does not stop the server: the button answers with the failure text, the log says why, and a later click retries', async () => {
    const closed = await freePort()
    const down = await startServer({
      OIDC_ISSUER: `http://127.0.0.1:${closed}`,
      OIDC_CLIENT_ID: 'storymap',
      OIDC_CLIENT_SECRET: 'secret',
      OIDC_NAME: 'Keycloak',
    })
    try {
      expect((await new Client(down.url).get('/healthz')).status).toBe(200)
      const browser = new Client(down.url)
      expect((await browser.get('/account/login')).text).toContain('Sign in with Keycloak')
      const start = await browser.get('/account/oidc/start')
      expect(start.status).toBe(302)
      expect(start.headers.get('location')).toBe('/account/login')
      expect((await browser.get('/account/login')).text).toContain('Sign-in with Keycloak failed. Try again.')
      expect(down.output()).toContain(`discovery at http://127.0.0.1:${closed} failed`)
      expect(down.output()).toMatch(/ECONNREFUSED|fetch failed/)
      expect(down.output()).not.toContain('"secret"')

      // Once the provider answers, a later click finds it: discovery is tried again.
      const late = await startProvider(down.url, closed)
      try {
        await expect
          .poll(async () => (await browser.get('/account/oidc/start')).headers.get('location'), {
            timeout: 20_000,
            interval: 500,
          })
          .toMatch(new RegExp(`^${late.issuer}/`))
      } finally {
        await late.close()
      }
    } finally {
      await down.stop()
    }
  })
})
