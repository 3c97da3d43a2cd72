import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client, signUp } from '../support/client'
import { startMailbox } from '../support/mailbox'
import { startServer, type RunningServer } from '../support/server'

/**
 * A server without SMTP_URL (CONTRACT §2: each e-mail only goes to the log) says so instead of
 * claiming it sent mail (issue 43): owners and admins get each pending invitation's link, no one
 * else does, and the public pages say no e-mail was sent without telling anything about accounts.
 */
const BASE = 'http://maps.example.test'
let server: RunningServer

beforeAll(async () => {
  server = await startServer({ BASE_URL: BASE })
})
afterAll(async () => {
  await server?.stop()
})

type User = Awaited<ReturnType<typeof signUp>>
const form = (fields: Record<string, string>) => new URLSearchParams(fields)
const NOT_SET_UP = 'Mail is not set up on this server (SMTP_URL is unset)'

function addMember(owner: User, user: User, level: string) {
  const db = new Database(server.dbPath)
  try {
    db.prepare(
      'insert into members (id, workspace_id, account_id, level, created_at) values (?, ?, ?, ?, ?)',
    ).run(crypto.randomUUID(), owner.workspaceId, user.account.id, level, new Date().toISOString())
  } finally {
    db.close()
  }
}

async function submit(client: Client, path: string, fields: Record<string, string>) {
  const res = await client.post(path, form(fields))
  expect(res.status, res.text).toBe(302)
  return client.get(res.headers.get('location')!)
}

/** The codes of the invitation links a settings page carries (in its HTML and its data), each once. */
const linksIn = (html: string) => [
  ...new Set(
    [...html.matchAll(/http:\/\/maps\.example\.test\/account\/invitation\/([A-Za-z0-9_-]+)/g)].map(
      (m) => m[1],
    ),
  ),
]

describe('invitations without mail', () => {
  it('shows owners and admins each pending invitation’s working link; a resend makes a new one and kills the old', async () => {
    const owner = await signUp(server.url, { name: 'Ana Lima' })
    const path = `/${owner.workspaceName}/settings`
    const page = await submit(owner.client, path, {
      intent: 'invite',
      email: 'bea@example.com',
      level: 'EDITOR',
    })
    expect(page.text).toContain(
      'Invite saved. Mail is not set up, so nothing was sent: copy its invitation link below.',
    )
    expect(page.text).toContain(`${NOT_SET_UP}: invitations are not e-mailed.`)
    expect(page.text).toContain('Copy invitation link')
    const [code] = linksIn(page.text)
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/)
    // The same link on every look (it is made again from the invite, not stored).
    expect(linksIn((await owner.client.get(path)).text)).toEqual([code])
    // Never in the API's list, never in a member's view below admin.
    const listed = await owner.client.get('/v1/invites')
    expect(listed.text).not.toContain(code)
    const admin = await signUp(server.url)
    const editor = await signUp(server.url)
    addMember(owner, admin, 'ADMIN')
    addMember(owner, editor, 'EDITOR')
    expect(linksIn((await admin.client.get(path)).text)).toEqual([code])
    const editorView = await editor.client.get(path)
    expect(editorView.status).toBe(200)
    expect(linksIn(editorView.text)).toEqual([])
    expect(editorView.text).not.toContain(code)

    expect((await new Client(server.url).get(`/v1/users/invite/${code}`)).json).toEqual({
      workspaceName: owner.workspaceName,
      level: 'EDITOR',
    })
    const resent = await submit(owner.client, path, { intent: 'resendInvite', id: listed.json[0].id })
    expect(resent.text).toContain(
      'New invitation link made; the old one no longer works. Mail is not set up: copy it below.',
    )
    const [renewed] = linksIn(resent.text)
    expect(renewed).not.toBe(code)
    expect((await new Client(server.url).get(`/v1/users/invite/${code}`)).status).toBe(404)

    // The copied link works: the invited person signs up through it and is a member.
    const bea = await signUp(server.url, { email: 'bea@example.com', invitation: renewed })
    const members = (await owner.client.get('/v1/members')).json as { email: string; level: string }[]
    expect(members).toContainEqual(expect.objectContaining({ email: bea.email, level: 'EDITOR' }))
    expect(linksIn((await owner.client.get(path)).text)).toEqual([])
  })

  it('shows no link for an invitation this server cannot make again (sent before this version)', async () => {
    const owner = await signUp(server.url)
    const path = `/${owner.workspaceName}/settings`
    await submit(owner.client, path, { intent: 'invite', email: 'old@example.com', level: 'VIEWER' })
    const db = new Database(server.dbPath)
    db.prepare("update invites set code_hash = 'from-a-random-code' where email = 'old@example.com'").run()
    db.close()
    const page = await owner.client.get(path)
    expect(linksIn(page.text)).toEqual([])
    expect(page.text).toContain('Resend it to make a link you can copy.')
  })
})

describe('account pages without mail', () => {
  it('the sign-up welcome says no verification e-mail was sent', async () => {
    const user = await signUp(server.url)
    const page = await user.client.get('/account/signupsuccess')
    expect(page.text).toContain(
      'No e-mail was sent to verify your address: mail is not set up on this server.',
    )
    expect(page.text).not.toContain('We have sent you an e-mail')
    const settings = await user.client.get('/account/settings')
    expect(settings.text).toContain(
      `Your email address is not verified yet. ${NOT_SET_UP}, so no e-mail was sent.`,
    )
    const resend = await submit(user.client, '/account/settings', { intent: 'resend' })
    expect(resend.text).toContain(`${NOT_SET_UP}, so no e-mail was sent.`)
    expect(resend.text).not.toContain('Mail sent.')
  })

  it('the reset page says no link can be e-mailed, the same for any address, and never shows one', async () => {
    const user = await signUp(server.url)
    const c = new Client(server.url)
    expect((await c.get('/account/reset')).text).toContain(
      'No reset link can be e-mailed: mail is not set up on this server.',
    )
    const answer = async (email: string) => {
      const page = await new Client(server.url).post('/account/reset', form({ email }))
      expect(page.status).toBe(200)
      const notice = /<p class="notice" role="status">([^<]*)<\/p>/.exec(page.text)?.[1]
      expect(page.text).not.toContain('/account/reset/')
      return notice
    }
    const known = await answer(user.email)
    expect(known).toContain('No e-mail was sent: mail is not set up on this server.')
    expect(await answer('nobody@example.com')).toBe(known)
  })
})

describe('with mail', () => {
  it('shows no invitation link and says the invite was sent', async () => {
    const mailbox = await startMailbox()
    const mailed = await startServer({ BASE_URL: BASE, SMTP_URL: mailbox.url })
    try {
      const owner = await signUp(mailed.url)
      const path = `/${owner.workspaceName}/settings`
      const page = await submit(owner.client, path, {
        intent: 'invite',
        email: 'cy@example.com',
        level: 'VIEWER',
      })
      expect(page.text).toContain('Invite sent')
      expect(page.text).not.toContain('Copy invitation link')
      expect(linksIn(page.text)).toEqual([])
      expect((await owner.client.get('/account/signupsuccess')).text).toContain(
        'We have sent you an e-mail to verify your address.',
      )
    } finally {
      await mailed.stop()
      await mailbox.close()
    }
  })
})
