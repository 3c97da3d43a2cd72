import { afterAll, beforeAll, expect, it } from 'vitest'
import { makeBoard } from '../support/board'
import { Client, signUp } from '../support/client'
import { linkIn, startMailbox } from '../support/mailbox'
import { startServer, type RunningServer } from '../support/server'

/** Logs (issue #7): structured JSON with a request id, and never a password, key, cookie or session id. */
const BASE = 'http://storymap.test'
const SECRETS = {
  SESSION_SECRET: 'canary-session-secret-0123456789',
  STRIPE_SECRET_KEY: 'sk_test_canary_stripe_key',
  STRIPE_WEBHOOK_SECRET: 'whsec_canary_webhook',
}
const SMTP_PASS = 'canary-smtp-pass'
let server: RunningServer
let mailbox: Awaited<ReturnType<typeof startMailbox>>
beforeAll(async () => {
  mailbox = await startMailbox({ auth: { user: 'mailer', pass: SMTP_PASS } })
  server = await startServer({
    ...SECRETS,
    SMTP_URL: `smtp://mailer:${SMTP_PASS}@127.0.0.1:${mailbox.port}`,
    BASE_URL: BASE,
    LOG_LEVEL: 'debug',
  })
})
afterAll(async () => {
  await server?.stop()
  await mailbox?.close()
})

const form = (fields: Record<string, string>) => new URLSearchParams(fields)
const keyOf = (link: string) => link.slice(link.lastIndexOf('/') + 1)

it('a day of traffic leaves JSON lines with request ids and no secret in them', async () => {
  const password = 'canary-password-1'
  const since = mailbox.mails.length
  const user = await signUp(server.url, { password })
  const verifyKey = keyOf(linkIn(await mailbox.waitFor(user.email, since), `${BASE}/account/verify/`))
  const page = new Client(server.url)
  await page.post('/account/login', form({ email: user.email, password }))
  await new Client(server.url).post('/v1/users/login', {
    email: user.email,
    password: 'canary-wrong-password',
  })
  await new Client(server.url).post('/account/signup', form({ workspaceName: 'x', password: 'canary-short' }))
  const beforeReset = mailbox.mails.length
  await new Client(server.url).post('/account/reset', form({ email: user.email }))
  const resetKey = keyOf(linkIn(await mailbox.waitFor(user.email, beforeReset), `${BASE}/account/reset/`))
  await new Client(server.url).get(`/account/reset/${resetKey}`)
  await new Client(server.url).post(`/account/reset/${resetKey}`, form({ password: 'canary-new-password' }))
  await new Client(server.url).get(`/account/verify/${verifyKey}`)
  const invitee = `invitee${Date.now()}@example.com`
  const beforeInvite = mailbox.mails.length
  const owner = await signUp(server.url)
  await owner.client.post('/v1/invites', { email: invitee })
  const code = keyOf(linkIn(await mailbox.waitFor(invitee, beforeInvite), `${BASE}/account/invitation/`))
  await owner.client.get(`/account/invitation/${code}`)
  await new Client(server.url).get(`/v1/users/invite/${code}`)
  const ids = await makeBoard(owner.client)
  const link = (await owner.client.get(`/v1/projects/${ids.project}`)).json.project.externalLink
  await new Client(server.url).get(`/link/${link}`)
  await new Client(server.url).post('/v1/users/setpassword', {
    key: 'canary-made-up-key',
    password: 'canary-password-2',
  })
  const contact = await new Client(server.url).post('/v1/users/contact', {
    topic: 'general',
    body: 'Hello',
    sender: 'a@b.co',
  })
  const refused = await new Client(server.url).post('/v1/users/login', 'x'.repeat(2_000_000), {
    'Content-Type': 'application/json',
  })
  expect(refused.status).toBe(413)
  // Its line is written when the connection closes, after the rest of the body was dropped.
  const refusedId = refused.headers.get('x-request-id')!
  for (let i = 0; i < 100 && !server.output().includes(`"requestId":"${refusedId}"`); i++) {
    await new Promise((r) => setTimeout(r, 50))
  }

  const output = server.output()
  const sessions = [
    ...page.cookies.values(),
    ...user.client.cookies.values(),
    ...owner.client.cookies.values(),
  ]
  const forbidden = [
    ...Object.values(SECRETS),
    SMTP_PASS,
    password,
    'canary-wrong-password',
    'canary-short',
    'canary-new-password',
    'canary-password-2',
    'canary-made-up-key',
    resetKey,
    verifyKey,
    code,
    link,
    ...sessions,
    ...sessions.map(decodeURIComponent),
  ]
  for (const secret of forbidden) expect([secret, output.includes(secret)]).toEqual([secret, false])

  const lines = output.trim().split('\n')
  expect(lines.length).toBeGreaterThan(20)
  const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>)
  const requests = entries.filter((e) => e.msg === 'request')
  expect(requests.length).toBeGreaterThan(15)
  for (const e of requests) expect(e.requestId).toMatch(/^[0-9a-f-]{36}$/)
  expect(requests.map((e) => e.path)).toEqual(
    expect.arrayContaining([
      '/account/reset/:key',
      '/account/verify/:key',
      '/account/invitation/:key',
      '/link/:key',
    ]),
  )
  // A line written inside a request carries that request's id, as does the X-Request-Id header.
  const contactLine = entries.find((e) => String(e.msg).startsWith('contact form message'))!
  expect(contactLine.requestId).toBe(contact.headers.get('x-request-id'))
  const refusedLine = entries.find((e) => e.msg === 'request' && e.status === 413)!
  expect(refusedLine.requestId).toBe(refusedId)
})
