import Database from 'better-sqlite3'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client, signUp } from '../support/client'
import { linkIn, startMailbox } from '../support/mailbox'
import { startServer, type RunningServer } from '../support/server'

/**
 * Joining by invitation (issue 20): a sign-up that carries an invitation code joins the inviting
 * workspace only, for the invited address only, and lands on that workspace.
 */
const BASE = 'http://storymap.test'
let server: RunningServer
let mailbox: Awaited<ReturnType<typeof startMailbox>>

beforeAll(async () => {
  mailbox = await startMailbox()
  server = await startServer({ SMTP_URL: mailbox.url, BASE_URL: BASE })
})
afterAll(async () => {
  await server?.stop()
  await mailbox?.close()
})

const form = (fields: Record<string, string>) => new URLSearchParams(fields)
const keyOf = (link: string) => link.slice(link.lastIndexOf('/') + 1)
const uniqueEmail = (tag: string) => `${tag}${crypto.randomUUID().slice(0, 8)}@example.com`

function count(table: string, where = '1 = 1', ...args: unknown[]): number {
  const db = new Database(server.dbPath, { readonly: true })
  try {
    return (db.prepare(`select count(*) as n from ${table} where ${where}`).get(...args) as { n: number }).n
  } finally {
    db.close()
  }
}

/** The owner invites `email` at `level`; returns the code from the mailed link. */
async function invite(owner: Awaited<ReturnType<typeof signUp>>, email: string, level = 'EDITOR') {
  const since = mailbox.mails.length
  const sent = await owner.client.post('/v1/invites', { email, level })
  expect(sent.status).toBe(200)
  return keyOf(linkIn(await mailbox.waitFor(email, since), `${BASE}/account/invitation/`))
}

const signupBody = (email: string, extra: Record<string, string> = {}) => ({
  name: 'Ivy Invitee',
  email,
  password: 'correct-horse',
  ...extra,
})

describe('sign-up through the API with an invitation code', () => {
  it('creates no workspace of its own: the account joins the inviting workspace at the invited level', async () => {
    const owner = await signUp(server.url)
    const email = uniqueEmail('joiner')
    const code = await invite(owner, email, 'EDITOR')
    const workspaces = count('workspaces')
    const client = new Client(server.url)
    const res = await client.post('/v1/users/signup', signupBody(email, { invitation: code }))
    expect(res.status).toBe(200)
    expect(res.json).toMatchObject({ email })
    expect(count('workspaces')).toBe(workspaces)
    const app = (await client.get('/v1/account/app')).json
    expect(app.workspaces.map((w: { name: string }) => w.name)).toEqual([owner.workspaceName])
    expect(app.memberships).toHaveLength(1)
    expect(app.memberships[0].level).toBe('EDITOR')
    // The code is used up, and the invite is gone from the owner's list.
    expect((await new Client(server.url).get(`/v1/users/invite/${code}`)).status).toBe(404)
    expect((await owner.client.get('/v1/invites')).json).toEqual([])
  })

  it('ignores a workspace name sent along with the code', async () => {
    const owner = await signUp(server.url)
    const email = uniqueEmail('named')
    const code = await invite(owner, email)
    const wanted = `own${Date.now().toString(36)}`
    const res = await new Client(server.url).post(
      '/v1/users/signup',
      signupBody(email, { invitation: code, workspaceName: wanted }),
    )
    expect(res.status).toBe(200)
    expect(count('workspaces', 'name = ?', wanted)).toBe(0)
  })

  it('refuses an unknown, expired or used code with "Invitation not found." and creates nothing', async () => {
    const owner = await signUp(server.url)
    const email = uniqueEmail('late')
    const code = await invite(owner, email)
    const unknown = await new Client(server.url).post(
      '/v1/users/signup',
      signupBody(email, { invitation: 'no-such-code' }),
    )
    expect(unknown).toMatchObject({
      status: 404,
      json: { error: 'invitation_not_found', message: 'Invitation not found.' },
    })
    const db = new Database(server.dbPath)
    db.prepare("update invites set expires_at = '2000-01-01T00:00:00.000Z' where email = ?").run(email)
    db.close()
    const expired = await new Client(server.url).post(
      '/v1/users/signup',
      signupBody(email, { invitation: code }),
    )
    expect(expired.status).toBe(404)
    expect(expired.json.message).toBe('Invitation not found.')
    expect(count('accounts', 'email = ?', email)).toBe(0)

    // Used: a second sign-up with the same code, under another address, finds nothing.
    const fresh = uniqueEmail('first')
    const used = await invite(owner, fresh)
    expect(
      (await new Client(server.url).post('/v1/users/signup', signupBody(fresh, { invitation: used }))).status,
    ).toBe(200)
    const again = uniqueEmail('second')
    const second = await new Client(server.url).post(
      '/v1/users/signup',
      signupBody(again, { invitation: used }),
    )
    expect(second.status).toBe(404)
    expect(count('accounts', 'email = ?', again)).toBe(0)
  })

  it('is only for the invited address: another one is refused and nothing is created', async () => {
    const owner = await signUp(server.url)
    const invited = uniqueEmail('invited')
    const code = await invite(owner, invited)
    const other = uniqueEmail('other')
    const res = await new Client(server.url).post('/v1/users/signup', signupBody(other, { invitation: code }))
    expect(res).toMatchObject({
      status: 403,
      json: { error: 'invitation_email_mismatch', message: `This invitation is for ${invited}.` },
    })
    expect(count('accounts', 'email = ?', other)).toBe(0)
    // Letter case and spaces do not matter.
    const ok = await new Client(server.url).post(
      '/v1/users/signup',
      signupBody(` ${invited.toUpperCase()} `, { invitation: code }),
    )
    expect(ok.status).toBe(200)
  })

  it('without a code, a workspace name is still required', async () => {
    const res = await new Client(server.url).post('/v1/users/signup', signupBody(uniqueEmail('plain')))
    expect(res).toMatchObject({
      status: 400,
      json: { error: 'workspace_invalid', message: 'Workspace is invalid.' },
    })
  })
})

describe('accepting as a signed-in account', () => {
  it('is only for the invited address', async () => {
    const owner = await signUp(server.url)
    const code = await invite(owner, uniqueEmail('meant'))
    const someoneElse = await signUp(server.url)
    const res = await someoneElse.client.post(`/v1/users/invite/${code}`)
    expect(res.status).toBe(403)
    expect(res.json.error).toBe('invitation_email_mismatch')
    expect((await new Client(server.url).get(`/v1/users/invite/${code}`)).status).toBe(200)
    expect((await someoneElse.client.get('/v1/account/app')).json.workspaces).toHaveLength(1)
  })
})

describe('the invitation and sign-up pages without JavaScript', () => {
  it('the invitation page says who invited whom, to which workspace, at which level, in words', async () => {
    const owner = await signUp(server.url, { name: 'Olga Owner' })
    const email = uniqueEmail('page')
    const code = await invite(owner, email, 'ADMIN')
    const page = await new Client(server.url).get(`/account/invitation/${code}`)
    // What the page shows: the loader's data in the scripts keeps the API's level codes.
    const text = page.text.replace(/<script[\s\S]*?<\/script>/g, '').replace(/<[^>]+>/g, '')
    expect(text).toContain(`Olga Owner invited you to join the workspace ${owner.workspaceName} as Admin.`)
    expect(text).toContain(`The invitation is for ${email}.`)
    expect(text).not.toContain('ADMIN')
    expect(page.text).toContain(`/account/signup?invitation=${code}`)
  })

  it('a signed-in account with another address is told so, and offered no Accept button', async () => {
    const owner = await signUp(server.url)
    const email = uniqueEmail('wrong')
    const code = await invite(owner, email)
    const other = await signUp(server.url)
    const page = await other.client.get(`/account/invitation/${code}`)
    expect(page.text).toContain(`This invitation is for ${email}. You are signed in as ${other.email}.`)
    expect(page.text).not.toContain('Accept invite')
    const posted = await other.client.post(`/account/invitation/${code}`, form({}))
    expect(posted.text).toContain(`This invitation is for ${email}.`)
    expect((await other.client.get('/v1/account/app')).json.workspaces).toHaveLength(1)
  })

  it('Create an account opens the sign-up form with the address filled in and no workspace field', async () => {
    const owner = await signUp(server.url)
    const email = uniqueEmail('form')
    const code = await invite(owner, email, 'VIEWER')
    const page = await new Client(server.url).get(`/account/signup?invitation=${code}`)
    expect(page.status).toBe(200)
    expect(page.text).not.toContain('Workspace name')
    expect(page.text).not.toContain('name="workspaceName"')
    expect(page.text).toMatch(
      new RegExp(`<input[^>]*name="email"[^>]*value="${email.replace(/[.]/g, '\\.')}"`),
    )
    expect(page.text).toContain(`value="${code}"`)
    expect(page.text.replace(/<[^>]+>/g, '')).toContain(
      `to join the workspace ${owner.workspaceName} as Viewer`,
    )
  })

  it('signing up there lands on the workspace’s projects page, with no workspace of its own', async () => {
    const owner = await signUp(server.url)
    const email = uniqueEmail('lands')
    const code = await invite(owner, email)
    const workspaces = count('workspaces')
    const since = mailbox.mails.length
    const c = new Client(server.url)
    const res = await c.post(
      `/account/signup?invitation=${code}`,
      form({ invitation: code, name: 'Lena Lands', email, password: 'correct-horse' }),
    )
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe(`/${owner.workspaceName}`)
    const landed = await c.get(`/${owner.workspaceName}`)
    expect(landed.status).toBe(200)
    expect(landed.text).toContain('Invitation accepted.')
    expect(count('workspaces')).toBe(workspaces)
    const app = (await c.get('/v1/account/app')).json
    expect(app.workspaces.map((w: { name: string }) => w.name)).toEqual([owner.workspaceName])
    // The verification mail goes out as for every sign-up (CONTRACT §4).
    expect((await mailbox.waitFor(email, since)).subject).toBe('Verify your e-mail address')
  })

  it('a bad code or another address shows a clear error on the form and creates nothing', async () => {
    const owner = await signUp(server.url)
    const email = uniqueEmail('formbad')
    const code = await invite(owner, email)
    const c = new Client(server.url)
    const bad = await c.get('/account/signup?invitation=nope')
    expect(bad.text).toContain('Invitation not found.')
    const posted = await c.post(
      '/account/signup?invitation=nope',
      form({ invitation: 'nope', name: 'X', email, password: 'correct-horse' }),
    )
    expect(posted.status).toBe(200)
    expect(posted.text).toContain('Invitation not found.')
    const other = uniqueEmail('formother')
    const mismatch = await c.post(
      `/account/signup?invitation=${code}`,
      form({ invitation: code, name: 'X', email: other, password: 'correct-horse' }),
    )
    expect(mismatch.status).toBe(200)
    expect(mismatch.text).toContain(`This invitation is for ${email}.`)
    expect(count('accounts', 'email in (?, ?)', email, other)).toBe(0)
  })
})

describe('SIGNUP=invite-only', () => {
  it('refuses a plain sign-up but takes one through an invitation, on the page and the API', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'storymap-invite-only-'))
    // The owner signs up while sign-up is open; then the server restarts invite-only.
    const open = await startServer({ SMTP_URL: mailbox.url, BASE_URL: BASE }, { dir })
    const owner = await signUp(open.url)
    await open.stop()
    const closed = await startServer(
      { SMTP_URL: mailbox.url, BASE_URL: BASE, SIGNUP: 'invite-only' },
      { dir },
    )
    try {
      const cookies = owner.client.cookies
      owner.client = new Client(closed.url, owner.workspaceId)
      owner.client.cookies = cookies
      const plain = await new Client(closed.url).get('/account/signup')
      expect(plain.text).toContain('Sign-up is by invitation only.')

      const email = uniqueEmail('closed')
      const code = await invite(owner, email, 'VIEWER')
      const page = await new Client(closed.url).get(`/account/signup?invitation=${code}`)
      expect(page.text).not.toContain('Sign-up is by invitation only.')
      const c = new Client(closed.url)
      const res = await c.post(
        `/account/signup?invitation=${code}`,
        form({ invitation: code, name: 'Cleo Closed', email, password: 'correct-horse' }),
      )
      expect(res.status).toBe(302)
      expect(res.headers.get('location')).toBe(`/${owner.workspaceName}`)

      const apiEmail = uniqueEmail('closedapi')
      const apiCode = await invite(owner, apiEmail, 'EDITOR')
      const api = await new Client(closed.url).post(
        '/v1/users/signup',
        signupBody(apiEmail, { invitation: apiCode }),
      )
      expect(api.status).toBe(200)
      const refused = await new Client(closed.url).post(
        '/v1/users/signup',
        signupBody(uniqueEmail('closedplain'), { workspaceName: `x${Date.now().toString(36)}` }),
      )
      expect(refused.json.error).toBe('signup_closed')
    } finally {
      await closed.stop()
    }
  })
})
