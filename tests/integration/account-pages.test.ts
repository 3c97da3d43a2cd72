import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client, signUp } from '../support/client'
import { linkIn, startMailbox } from '../support/mailbox'
import { startServer, type RunningServer } from '../support/server'

/** The account pages without JavaScript: urlencoded posts, SPEC texts in the returned HTML. */
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
const keyOf = (link: string) => link.slice(link.lastIndexOf('/') + 1)

/** Posts a form that redirects, then loads the target page as the browser would. */
async function submit(client: Client, path: string, fields: Record<string, string>) {
  const res = await client.post(path, form(fields))
  expect(res.status).toBe(302)
  const location = res.headers.get('location')!
  return { location, page: await client.get(location) }
}

describe('/account/settings', () => {
  it('needs a session', async () => {
    const res = await new Client(server.url).get('/account/settings')
    expect(res.headers.get('location')).toBe('/account/login?redirectTo=%2Faccount%2Fsettings')
  })

  it('shows the cards, the unverified warning and resends the mail once per click', async () => {
    const user = await signUp(server.url)
    const page = await user.client.get('/account/settings')
    for (const text of [
      'Verify your email',
      'Resend verification email',
      'Change email',
      'Change name',
      'Delete account',
    ]) {
      expect(page.text).toContain(text)
    }
    expect(page.text).toContain(`/account/reset?email=${encodeURIComponent(user.email)}`)
    expect(page.text).not.toContain('Yes, I am really sure!')
    const since = mailbox.mails.length
    const { location, page: after } = await submit(user.client, '/account/settings', { intent: 'resend' })
    expect(location).toBe('/account/settings')
    expect(after.text).toContain('Mail sent.')
    expect(after.text).toContain('role="status"')
    await mailbox.waitFor(user.email, since)
    // The message is shown once.
    expect((await user.client.get('/account/settings')).text).not.toContain('Mail sent.')
  })

  it('validates and changes the e-mail', async () => {
    const user = await signUp(server.url)
    expect(
      (await user.client.post('/account/settings', form({ intent: 'email', email: 'nope' }))).text,
    ).toContain('Invalid email address.')
    expect(
      (await user.client.post('/account/settings', form({ intent: 'email', email: '' }))).text,
    ).toContain('Required.')
    const other = await signUp(server.url)
    expect(
      (await user.client.post('/account/settings', form({ intent: 'email', email: other.email }))).text,
    ).toContain('Email is already registered.')
    const newEmail = `new${Math.floor(Math.random() * 1e9)}@example.com`
    const since = mailbox.mails.length
    const { page } = await submit(user.client, '/account/settings', { intent: 'email', email: newEmail })
    expect(page.text).toContain('An email has been sent to your new email with instructions.')
    expect(page.text).toContain(`We sent a verification link to ${newEmail}`)
    await mailbox.waitFor(newEmail, since)
  })

  it('validates and changes the name', async () => {
    const user = await signUp(server.url)
    expect((await user.client.post('/account/settings', form({ intent: 'name', name: '' }))).text).toContain(
      'Required.',
    )
    expect(
      (await user.client.post('/account/settings', form({ intent: 'name', name: 'x'.repeat(201) }))).text,
    ).toContain('Maximum 200 characters.')
    const { page } = await submit(user.client, '/account/settings', {
      intent: 'name',
      name: 'Renamed Person',
    })
    expect(page.text).toContain('Name is changed. Refresh your browser for it to take effect.')
    expect((await user.client.get('/v1/account/app')).json.account.name).toBe('Renamed Person')
  })

  it('deletes in two steps, and refuses the last owner of a shared workspace with its message', async () => {
    const owner = await signUp(server.url)
    const confirm = await owner.client.get('/account/settings?delete=1')
    expect(confirm.text).toContain('Yes, I am really sure!')
    const invitee = await signUp(server.url)
    const since = mailbox.mails.length
    await owner.client.post('/v1/invites', { email: invitee.email, level: 'VIEWER' })
    const code = keyOf(linkIn(await mailbox.waitFor(invitee.email, since), `${BASE}/account/invitation/`))
    await invitee.client.post(`/v1/users/invite/${code}`)
    const { page } = await submit(owner.client, '/account/settings', { intent: 'delete' })
    expect(page.text).toContain(`You are the last owner of the workspace ${owner.workspaceName}.`)

    const alone = await signUp(server.url)
    const res = await alone.client.post('/account/settings', form({ intent: 'delete' }))
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('/')
    expect((await alone.client.get('/v1/account/app')).status).toBe(401)
  })
})

describe('the theme follows the account (CONTRACT §12)', () => {
  const themeOfPage = (html: string) => /<html[^>]*data-theme="(\w+)"/.exec(html)?.[1]

  it('a session begun by the API log-in, in a browser whose cookie says light, shows the account’s dark', async () => {
    const user = await signUp(server.url)
    const chose = await user.client.post('/account/theme', form({ theme: 'dark', redirectTo: '/' }))
    expect(chose.status).toBe(302)

    const browser = new Client(server.url)
    await browser.post('/account/theme', form({ theme: 'light', redirectTo: '/' }))
    expect(themeOfPage((await browser.get('/account/login')).text)).toBe('light')
    expect(
      (await browser.post('/v1/users/login', { email: user.email, password: user.password })).status,
    ).toBe(200)
    const page = await browser.get(`/${user.workspaceName}`)
    expect(page.status).toBe(200)
    expect(themeOfPage(page.text)).toBe('dark')
    // The cookie follows, so the log-in page after logging out keeps the account's theme.
    await browser.post('/v1/users/logout')
    expect(themeOfPage((await browser.get('/account/login')).text)).toBe('dark')
  })

  it('a new account shows its own theme (System), not the dark a previous visitor of the browser chose', async () => {
    const browser = new Client(server.url)
    await browser.post('/account/theme', form({ theme: 'dark', redirectTo: '/' }))
    expect(themeOfPage((await browser.get('/account/signup')).text)).toBe('dark')
    const name = `ws${Date.now()}`
    const created = await browser.post('/v1/users/signup', {
      workspaceName: name,
      name: 'New',
      email: `${name}@example.com`,
      password: 'correct-horse',
    })
    expect(created.status).toBe(200)
    expect(themeOfPage((await browser.get(`/${name}`)).text)).toBe('system')
  })
})

describe('/account/reset', () => {
  it('prefills the e-mail and always says the mail was sent', async () => {
    expect((await new Client(server.url).get('/account/reset?email=ann%40example.com')).text).toContain(
      'value="ann@example.com"',
    )
    const c = new Client(server.url)
    expect((await c.post('/account/reset', form({ email: '' }))).text).toContain('Email required.')
    expect((await c.post('/account/reset', form({ email: 'bad' }))).text).toContain('Email invalid.')
    expect((await c.post('/account/reset', form({ email: 'nobody@example.com' }))).text).toContain(
      'Email sent.',
    )
  })

  it('sets a new password with the mailed link, showing the password messages', async () => {
    const user = await signUp(server.url)
    const since = mailbox.mails.length
    expect((await new Client(server.url).post('/account/reset', form({ email: user.email }))).text).toContain(
      'Email sent.',
    )
    const path = new URL(linkIn(await mailbox.waitFor(user.email, since), `${BASE}/account/reset/`)).pathname
    const c = new Client(server.url)
    expect((await c.get(path)).text).not.toContain('invalid or has expired')
    expect((await c.post(path, form({ password: '' }))).text).toContain('Password required.')
    expect((await c.post(path, form({ password: '123' }))).text).toContain('Password minimum 6 characters.')
    expect((await c.post(path, form({ password: 'x'.repeat(201) }))).text).toContain(
      'Password maximum 200 characters.',
    )
    const { location, page } = await submit(c, path, { password: 'a-new-password' })
    expect(location).toBe('/account/login')
    expect(page.text).toContain('Password changed. Please log in.')
    expect((await c.get(path)).text).toContain('This link is invalid or has expired.')
    expect((await c.post(path, form({ password: 'another-one' }))).text).toContain(
      'This link is invalid or has expired.',
    )
  })
})

describe('/account/invitation/{code}', () => {
  it('shows "Invitation not found." for a bad code', async () => {
    expect((await new Client(server.url).get('/account/invitation/nope')).text).toContain(
      'Invitation not found.',
    )
  })

  it('shows the invitation, sends a signed-out visitor to log in, and accepts for a signed-in one', async () => {
    const owner = await signUp(server.url)
    const email = `page${Math.floor(Math.random() * 1e9)}@example.com`
    const since = mailbox.mails.length
    await owner.client.post('/v1/invites', { email, level: 'ADMIN' })
    const code = keyOf(linkIn(await mailbox.waitFor(email, since), `${BASE}/account/invitation/`))
    const visitor = new Client(server.url)
    const page = await visitor.get(`/account/invitation/${code}`)
    for (const text of [
      'Invitation to join workspace',
      `${owner.name} invited you to join the workspace ${owner.workspaceName} as Admin.`,
      'Accept invite',
      'Create an account',
    ]) {
      expect(page.text.replace(/<[^>]+>/g, '')).toContain(text)
    }
    expect(page.text).toContain(`/account/signup?invitation=${code}`)
    const anonymous = await visitor.post(`/account/invitation/${code}`, form({}))
    expect(anonymous.headers.get('location')).toBe(
      `/account/login?redirectTo=${encodeURIComponent(`/account/invitation/${code}`)}`,
    )

    const invitee = await signUp(server.url, { email })
    const { location, page: after } = await submit(invitee.client, `/account/invitation/${code}`, {})
    expect(location).toBe(`/${owner.workspaceName}`)
    expect(after.text).toContain('Invitation accepted.')
    expect((await invitee.client.get(`/account/invitation/${code}`)).text).toContain('Invitation not found.')
  })
})

describe('/account/contact', () => {
  it('validates with the SPEC texts and sends the message', async () => {
    const c = new Client(server.url)
    const page = await c.get('/account/contact')
    expect(page.text).toMatch(/<option value="general" selected="">General/)
    const empty = await c.post('/account/contact', form({ topic: 'general', body: '', sender: 'nope' }))
    expect(empty.text).toContain('Required.')
    expect(empty.text).toContain('Invalid email address.')
    expect(
      (
        await c.post(
          '/account/contact',
          form({ topic: 'general', body: 'x'.repeat(10001), sender: 'a@b.co' }),
        )
      ).text,
    ).toContain('Maximum 10000 characters.')
    const since = mailbox.mails.length
    const ok = await c.post(
      '/account/contact',
      form({ topic: 'support', body: 'Please help <me>', sender: 'me@example.com' }),
    )
    expect(ok.text).toContain('Thank you! Your message has been sent.')
    const mail = await mailbox.waitFor('team@storymap.test', since)
    expect(mail.subject).toContain('support')
    expect(mail.html).toContain('Please help &lt;me&gt;')
  })
})

describe('plan result pages', () => {
  it('/account/success and /account/cancel', async () => {
    const success = await new Client(server.url).get('/account/success')
    expect(success.text).toContain('Plan change successful!')
    const cancel = await new Client(server.url).get('/account/cancel')
    expect(cancel.text).toContain('Something went wrong')
    expect(cancel.text).toContain('contact support')
    expect(cancel.text).toContain('href="/account/contact')
  })
})

describe('when the mail server is down', () => {
  let down: RunningServer
  beforeAll(async () => {
    down = await startServer({ SMTP_URL: 'smtp://127.0.0.1:9', BASE_URL: BASE })
  })
  afterAll(async () => {
    await down?.stop()
  })

  it('sign-up still succeeds; resend and e-mail change answer "Something went wrong."', async () => {
    const user = await signUp(down.url)
    const resend = await user.client.post('/v1/account/resend')
    expect(resend.status).toBe(503)
    expect(resend.json).toEqual({ error: 'mail_failed', message: 'Something went wrong.' })
    const { page } = await submit(user.client, '/account/settings', { intent: 'resend' })
    expect(page.text).toContain('Something went wrong.')
    const newEmail = `down${Math.floor(Math.random() * 1e9)}@example.com`
    const change = await submit(user.client, '/account/settings', { intent: 'email', email: newEmail })
    expect(change.page.text).toContain('Something went wrong.')
    // The change itself is kept: the pending address is recorded.
    expect((await user.client.get('/v1/account/app')).json.account.emailConfirmationSentTo).toBe(newEmail)
    expect((await new Client(down.url).post(`/v1/users/reset/${user.email}`)).status).toBe(200)
    const invite = await user.client.post('/v1/invites', { email: 'someone@example.com', level: 'VIEWER' })
    expect(invite.status).toBe(200)
    expect((await user.client.get('/v1/invites')).json).toHaveLength(1)
  })
})
