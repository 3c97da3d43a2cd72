import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client, signUp } from '../support/client'
import { linkIn, startMailbox } from '../support/mailbox'
import { startServer, type RunningServer } from '../support/server'

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

const keyOf = (link: string) => link.slice(link.lastIndexOf('/') + 1)

function sql(statement: string, ...args: unknown[]) {
  const db = new Database(server.dbPath)
  try {
    db.prepare(statement).run(...args)
  } finally {
    db.close()
  }
}

describe('verification e-mail', () => {
  it('is sent after sign-up with an absolute link that verifies the address once', async () => {
    const since = mailbox.mails.length
    const user = await signUp(server.url)
    const mail = await mailbox.waitFor(user.email, since)
    expect(mail.subject).toBe('Verify your e-mail address')
    expect(mail.html).toContain('/account/verify/')
    const link = linkIn(mail, `${BASE}/account/verify/`)
    const key = keyOf(link)
    expect(key.length).toBeGreaterThanOrEqual(22)

    const first = await new Client(server.url).post(`/v1/users/verify/${key}`)
    expect(first.status).toBe(200)
    expect(first.json).toMatchObject({
      email: user.email,
      emailConfirmed: true,
      emailConfirmationPending: false,
    })
    const app = await user.client.get('/v1/account/app')
    expect(app.json.account.emailConfirmed).toBe(true)

    const again = await new Client(server.url).post(`/v1/users/verify/${key}`)
    expect(again.status).toBe(400)
    expect(again.json.error).toBe('key_invalid')
  })

  it('verify page shows the SPEC texts', async () => {
    const since = mailbox.mails.length
    const user = await signUp(server.url)
    const key = keyOf(linkIn(await mailbox.waitFor(user.email, since), `${BASE}/account/verify/`))
    const ok = await new Client(server.url).get(`/account/verify/${key}`)
    expect(ok.text).toContain('Email address verified!')
    const bad = await new Client(server.url).get(`/account/verify/${key}`)
    expect(bad.text).toContain('Something went wrong')
    expect(bad.text).not.toContain('Email address verified!')
  })

  it('is resent on request, and an expired key is refused', async () => {
    const user = await signUp(server.url)
    const since = mailbox.mails.length
    const res = await user.client.post('/v1/account/resend')
    expect(res.status).toBe(200)
    const key = keyOf(linkIn(await mailbox.waitFor(user.email, since), `${BASE}/account/verify/`))
    sql(`update account_keys set expires_at = '2000-01-01T00:00:00.000Z' where kind = 'verify'`)
    const expired = await new Client(server.url).post(`/v1/users/verify/${key}`)
    expect(expired.status).toBe(400)
    expect((await user.client.get('/v1/account/app')).json.account.emailConfirmed).toBe(false)
  })

  it('e-mail change sends the link to the new address and changes the address only when it is opened', async () => {
    const user = await signUp(server.url)
    const newEmail = `changed${Math.floor(Math.random() * 1e9)}@example.com`
    const since = mailbox.mails.length
    const res = await user.client.post(`/v1/account/emailupdate/${encodeURIComponent(newEmail)}`)
    expect(res.status).toBe(200)
    const pending = (await user.client.get('/v1/account/app')).json.account
    expect(pending).toMatchObject({
      email: user.email,
      emailConfirmationPending: true,
      emailConfirmationSentTo: newEmail,
    })
    const key = keyOf(linkIn(await mailbox.waitFor(newEmail, since), `${BASE}/account/verify/`))
    expect((await new Client(server.url).post(`/v1/users/verify/${key}`)).status).toBe(200)
    const after = (await user.client.get('/v1/account/app')).json.account
    expect(after).toMatchObject({ email: newEmail, emailConfirmed: true, emailConfirmationPending: false })
    const login = await new Client(server.url).post('/v1/users/login', {
      email: newEmail,
      password: user.password,
    })
    expect(login.status).toBe(200)
  })

  it('refuses to verify an address taken by another account meanwhile', async () => {
    const ann = await signUp(server.url)
    const target = `taken${Math.floor(Math.random() * 1e9)}@example.com`
    const since = mailbox.mails.length
    await ann.client.post(`/v1/account/emailupdate/${target}`)
    const key = keyOf(linkIn(await mailbox.waitFor(target, since), `${BASE}/account/verify/`))
    await signUp(server.url, { email: target })
    const res = await new Client(server.url).post(`/v1/users/verify/${key}`)
    expect(res.status).toBe(409)
    expect(res.json.error).toBe('email_taken')
    expect((await ann.client.get('/v1/account/app')).json.account.email).toBe(ann.email)
  })

  it('refuses a malformed new address and one used by another account', async () => {
    const ann = await signUp(server.url)
    const bob = await signUp(server.url)
    expect((await ann.client.post('/v1/account/emailupdate/not-an-email')).json.error).toBe('email_invalid')
    const taken = await ann.client.post(`/v1/account/emailupdate/${bob.email}`)
    expect(taken.status).toBe(409)
    expect((await new Client(server.url).post(`/v1/account/emailupdate/${bob.email}`)).status).toBe(401)
  })
})

describe('password reset', () => {
  it('answers the same for unknown addresses and sends nothing', async () => {
    const since = mailbox.mails.length
    const res = await new Client(server.url).post('/v1/users/reset/nobody-here@example.com')
    expect(res.status).toBe(200)
    expect(res.json).toEqual({})
    // A marker: a reset asked for afterwards, for an address that exists, arrives; nothing came before it.
    const known = await signUp(server.url)
    const marked = mailbox.mails.length
    expect(
      (await new Client(server.url).post(`/v1/users/reset/${encodeURIComponent(known.email)}`)).status,
    ).toBe(200)
    await mailbox.waitFor(known.email, marked)
    expect(mailbox.mails.slice(since).some((m) => m.to.includes('nobody-here@example.com'))).toBe(false)
  })

  it('resets with the mailed key: old password refused, old sessions ended, key single-use', async () => {
    const user = await signUp(server.url)
    const since = mailbox.mails.length
    const res = await new Client(server.url).post(
      `/v1/users/reset/${encodeURIComponent(user.email.toUpperCase())}`,
    )
    expect(res.status).toBe(200)
    const mail = await mailbox.waitFor(user.email, since)
    expect(mail.subject).toBe('Reset your password')
    const key = keyOf(linkIn(mail, `${BASE}/account/reset/`))

    const short = await new Client(server.url).post('/v1/users/setpassword', { key, password: '123' })
    expect(short.json).toEqual({ error: 'password_invalid', message: 'Password is invalid.' })

    const ok = await new Client(server.url).post('/v1/users/setpassword', { key, password: 'brand-new-pw' })
    expect(ok.status).toBe(200)
    expect((await user.client.get('/v1/account/app')).status).toBe(401)
    const old = await new Client(server.url).post('/v1/users/login', {
      email: user.email,
      password: user.password,
    })
    expect(old.status).toBe(401)
    const fresh = await new Client(server.url).post('/v1/users/login', {
      email: user.email,
      password: 'brand-new-pw',
    })
    expect(fresh.status).toBe(200)

    const reused = await new Client(server.url).post('/v1/users/setpassword', { key, password: 'another-pw' })
    expect(reused.status).toBe(400)
    expect(reused.json.error).toBe('key_invalid')
  })

  it('refuses an expired reset key', async () => {
    const user = await signUp(server.url)
    const since = mailbox.mails.length
    await new Client(server.url).post(`/v1/users/reset/${user.email}`)
    const key = keyOf(linkIn(await mailbox.waitFor(user.email, since), `${BASE}/account/reset/`))
    sql(`update account_keys set expires_at = '2000-01-01T00:00:00.000Z' where kind = 'reset'`)
    const res = await new Client(server.url).post('/v1/users/setpassword', { key, password: 'brand-new-pw' })
    expect(res.status).toBe(400)
    expect((await user.client.get('/v1/account/app')).status).toBe(200)
  })

  it('a verify key cannot reset a password', async () => {
    const since = mailbox.mails.length
    const user = await signUp(server.url)
    const key = keyOf(linkIn(await mailbox.waitFor(user.email, since), `${BASE}/account/verify/`))
    expect(
      (await new Client(server.url).post('/v1/users/setpassword', { key, password: 'brand-new-pw' })).status,
    ).toBe(400)
  })
})

describe('invitations by e-mail', () => {
  it('invitee signs up, accepts via the API and sees the workspace', async () => {
    const owner = await signUp(server.url)
    const email = `invitee${Math.floor(Math.random() * 1e9)}@example.com`
    const since = mailbox.mails.length
    const sent = await owner.client.post('/v1/invites', { email, level: 'EDITOR' })
    expect(sent.status).toBe(200)
    expect(sent.json).toMatchObject({ email, level: 'EDITOR', createdByName: owner.name })
    expect(Object.keys(sent.json).sort()).toEqual(['createdAt', 'createdByName', 'email', 'id', 'level'])
    const mail = await mailbox.waitFor(email, since)
    expect(mail.text).toContain(owner.workspaceName)
    const code = keyOf(linkIn(mail, `${BASE}/account/invitation/`))

    const info = await new Client(server.url).get(`/v1/users/invite/${code}`)
    expect(info.json).toEqual({ workspaceName: owner.workspaceName, level: 'EDITOR' })
    const anonymous = await new Client(server.url).post(`/v1/users/invite/${code}`)
    expect(anonymous.status).toBe(401)

    const invitee = await signUp(server.url, { email })
    const accepted = await invitee.client.post(`/v1/users/invite/${code}`)
    expect(accepted.status).toBe(200)
    const app = await invitee.client.get('/v1/account/app')
    const ws = app.json.workspaces.find((w: { name: string }) => w.name === owner.workspaceName)
    expect(ws).toBeTruthy()
    expect(app.json.memberships.find((m: { workspaceId: string }) => m.workspaceId === ws.id).level).toBe(
      'EDITOR',
    )

    const reused = await invitee.client.post(`/v1/users/invite/${code}`)
    expect(reused.status).toBe(404)
    expect(reused.json.message).toBe('Invitation not found.')
    expect((await owner.client.get('/v1/invites')).json).toEqual([])
  })

  it('resend mails a new code and the old one stops working; an expired code is not found', async () => {
    const owner = await signUp(server.url)
    const email = `resend${Math.floor(Math.random() * 1e9)}@example.com`
    let since = mailbox.mails.length
    const sent = await owner.client.post('/v1/invites', { email, level: 'VIEWER' })
    const oldCode = keyOf(linkIn(await mailbox.waitFor(email, since), `${BASE}/account/invitation/`))
    since = mailbox.mails.length
    const resent = await owner.client.post(`/v1/invites/${sent.json.id}/resend`)
    expect(resent.status).toBe(200)
    const newCode = keyOf(linkIn(await mailbox.waitFor(email, since), `${BASE}/account/invitation/`))
    expect(newCode).not.toBe(oldCode)
    expect((await new Client(server.url).get(`/v1/users/invite/${oldCode}`)).status).toBe(404)
    expect((await new Client(server.url).get(`/v1/users/invite/${newCode}`)).status).toBe(200)
    sql('update invites set expires_at = ? where id = ?', '2000-01-01T00:00:00.000Z', sent.json.id)
    const expired = await new Client(server.url).get(`/v1/users/invite/${newCode}`)
    expect(expired.status).toBe(404)
    expect(expired.json.message).toBe('Invitation not found.')
  })

  it('an existing member accepting gets a clear error and the code stays usable', async () => {
    const owner = await signUp(server.url)
    const email = `dup${Math.floor(Math.random() * 1e9)}@example.com`
    const since = mailbox.mails.length
    await owner.client.post('/v1/invites', { email, level: 'VIEWER' })
    const code = keyOf(linkIn(await mailbox.waitFor(email, since), `${BASE}/account/invitation/`))
    const again = await owner.client.post(`/v1/users/invite/${code}`)
    expect(again.status).toBe(409)
    expect(again.json).toEqual({
      error: 'already_member',
      message: `You are already a member of the workspace ${owner.workspaceName}.`,
    })
    expect((await new Client(server.url).get(`/v1/users/invite/${code}`)).status).toBe(200)
    // A fresh invite to someone who is a member already is refused up front.
    const self = await owner.client.post('/v1/invites', { email: owner.email, level: 'VIEWER' })
    expect(self.status).toBe(409)
    expect(self.json.error).toBe('already_member')
  })

  it('signing up through the invitation link joins the workspace', async () => {
    const owner = await signUp(server.url)
    const email = `viasignup${Math.floor(Math.random() * 1e9)}@example.com`
    const since = mailbox.mails.length
    await owner.client.post('/v1/invites', { email, level: 'EDITOR' })
    const code = keyOf(linkIn(await mailbox.waitFor(email, since), `${BASE}/account/invitation/`))
    const signupPage = await new Client(server.url).get(`/account/signup?invitation=${code}`)
    expect(signupPage.text).toContain(`value="${code}"`)
    const invitee = await signUp(server.url, { email, invitation: code })
    const app = await invitee.client.get('/v1/account/app')
    expect(app.json.workspaces.map((w: { name: string }) => w.name)).toContain(owner.workspaceName)
    expect((await new Client(server.url).get(`/v1/users/invite/${code}`)).status).toBe(404)
  })

  it('escapes user-given names in the HTML part', async () => {
    const owner = await signUp(server.url, { name: '<b>Mallory</b>' })
    const email = `html${Math.floor(Math.random() * 1e9)}@example.com`
    const since = mailbox.mails.length
    await owner.client.post('/v1/invites', { email, level: 'VIEWER' })
    const mail = await mailbox.waitFor(email, since)
    expect(mail.html).toContain('&lt;b&gt;Mallory&lt;/b&gt;')
    expect(mail.html).not.toContain('<b>Mallory</b>')
  })
})

describe('contact form', () => {
  it('mails CONTACT_EMAIL without a session, with the sender as reply-to', async () => {
    const since = mailbox.mails.length
    const res = await new Client(server.url).post('/v1/users/contact', {
      topic: 'sales',
      body: 'Hello there',
      sender: 'buyer@example.com',
    })
    expect(res.status).toBe(200)
    const mail = await mailbox.waitFor('team@storymap.test', since)
    expect(mail.text).toContain('Hello there')
    expect(mail.raw).toMatch(/Reply-To: buyer@example.com/i)
  })

  it('answers in the server wording of SPEC §8', async () => {
    const c = new Client(server.url)
    expect(
      (await c.post('/v1/users/contact', { topic: 'general', body: 'Hi', sender: 'nope' })).json,
    ).toEqual({ error: 'email_invalid', message: 'email invalid' })
    expect(
      (await c.post('/v1/users/contact', { topic: 'general', body: '', sender: 'a@b.co' })).json.message,
    ).toBe('message too short')
    expect(
      (await c.post('/v1/users/contact', { topic: 'general', body: 'x'.repeat(10001), sender: 'a@b.co' }))
        .json.message,
    ).toBe('message too long')
  })
})
