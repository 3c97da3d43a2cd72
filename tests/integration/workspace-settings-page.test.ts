import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client, signUp } from '../support/client'
import { startServer, type RunningServer } from '../support/server'

/** /{workspace}/settings without JavaScript: each control is a form post followed by a redirect and a banner. */
let server: RunningServer
beforeAll(async () => {
  server = await startServer()
})
afterAll(async () => {
  await server?.stop()
})

type User = Awaited<ReturnType<typeof signUp>>
const form = (fields: Record<string, string>) => new URLSearchParams(fields)

function addMember(owner: User, user: User, level: string) {
  const db = new Database(server.dbPath)
  const id = crypto.randomUUID()
  try {
    db.prepare(
      'insert into members (id, workspace_id, account_id, level, created_at) values (?, ?, ?, ?, ?)',
    ).run(id, owner.workspaceId, user.account.id, level, new Date().toISOString())
  } finally {
    db.close()
  }
  return id
}

async function submit(client: Client, path: string, fields: Record<string, string>) {
  const res = await client.post(path, form(fields))
  expect(res.status).toBe(302)
  const location = res.headers.get('location')!
  return { location, page: await client.get(location) }
}

describe('workspace settings page', () => {
  it('shows an owner every section but Leave, and a viewer only their membership', async () => {
    const owner = await signUp(server.url)
    const viewer = await signUp(server.url)
    addMember(owner, viewer, 'VIEWER')
    const path = `/${owner.workspaceName}/settings`
    const mine = await owner.client.get(path)
    expect(mine.status).toBe(200)
    for (const text of [
      'My membership',
      'Workspace invites',
      'Members',
      'THIS IS YOU',
      'Delete workspace',
      viewer.email,
    ]) {
      expect(mine.text).toContain(text)
    }
    expect(mine.text).not.toContain('Leave workspace')
    expect(mine.text).not.toContain('Yes, I am really sure!')
    const theirs = await viewer.client.get(path)
    expect(theirs.text).toContain('My membership')
    expect(theirs.text).toContain('Leave workspace')
    for (const text of ['Workspace invites', 'THIS IS YOU', 'Delete workspace', owner.email])
      expect(theirs.text).not.toContain(text)
    expect((await new Client(server.url).get(path)).status).toBe(302)
  })

  it('invites, resends and cancels with the SPEC banners', async () => {
    const owner = await signUp(server.url)
    const path = `/${owner.workspaceName}/settings`
    expect(
      (await owner.client.post(path, form({ intent: 'invite', email: 'bad', level: 'VIEWER' }))).text,
    ).toContain('Invalid.')
    expect(
      (await owner.client.post(path, form({ intent: 'invite', email: '', level: 'VIEWER' }))).text,
    ).toContain('Required.')
    const sent = await submit(owner.client, path, {
      intent: 'invite',
      email: 'guest@example.com',
      level: 'EDITOR',
    })
    expect(sent.location).toBe(path)
    // This server has no SMTP_URL: nothing was sent, and the page says so (issue 43).
    expect(sent.page.text).not.toContain('Invite sent')
    expect(sent.page.text).toContain(
      'Invite saved. Mail is not set up, so nothing was sent: copy its invitation link below.',
    )
    expect(sent.page.text).toContain('guest@example.com')
    const [invite] = (await owner.client.get('/v1/invites')).json
    expect(invite.level).toBe('EDITOR')
    expect((await submit(owner.client, path, { intent: 'resendInvite', id: invite.id })).page.text).toContain(
      'New invitation link made; the old one no longer works. Mail is not set up: copy it below.',
    )
    expect((await submit(owner.client, path, { intent: 'cancelInvite', id: invite.id })).page.text).toContain(
      'Invite canceled',
    )
    const again = await submit(owner.client, path, { intent: 'cancelInvite', id: invite.id })
    expect(again.page.text).toContain('Invite not found.')
  })

  it('changes roles and removes members; refusals show the server message', async () => {
    const owner = await signUp(server.url)
    const admin = await signUp(server.url)
    const editor = await signUp(server.url)
    addMember(owner, admin, 'ADMIN')
    const editorId = addMember(owner, editor, 'EDITOR')
    const ownerId = (await owner.client.get('/v1/members')).json[0].id
    const path = `/${owner.workspaceName}/settings`
    const adminPage = await admin.client.get(path)
    expect(adminPage.text).toContain('Workspace invites')
    expect(adminPage.text).not.toContain('Delete workspace')
    const promote = await submit(admin.client, path, { intent: 'changeRole', id: editorId, level: 'OWNER' })
    expect(promote.page.text).toContain('Only an owner can make, change or remove an owner.')
    const removeOwner = await submit(admin.client, path, { intent: 'removeMember', id: ownerId })
    expect(removeOwner.page.text).toContain('Only an owner can make, change or remove an owner.')
    const own = await submit(owner.client, path, { intent: 'changeRole', id: ownerId, level: 'VIEWER' })
    expect(own.page.text).toContain('You cannot change your own level.')
    expect(
      (await submit(admin.client, path, { intent: 'changeRole', id: editorId, level: 'VIEWER' })).page.text,
    ).toContain('Role changed')
    expect((await submit(admin.client, path, { intent: 'removeMember', id: editorId })).page.text).toContain(
      'Membership removed',
    )
    // The removed member loses the page at once.
    expect((await editor.client.get(path)).headers.get('location')).toBe('/')
  })

  it('hides resend and role changes when the plan is inactive', async () => {
    const owner = await signUp(server.url)
    const viewer = await signUp(server.url)
    addMember(owner, viewer, 'VIEWER')
    await owner.client.post('/v1/invites', { email: 'x@example.com', level: 'VIEWER' })
    const path = `/${owner.workspaceName}/settings`
    const active = await owner.client.get(path)
    expect(active.text).toContain('Resend')
    expect(active.text).toContain('value="changeRole"')
    const db = new Database(server.dbPath)
    db.prepare(`update subscriptions set external_status = 'canceled' where workspace_id = ?`).run(
      owner.workspaceId,
    )
    db.close()
    const inactive = await owner.client.get(path)
    expect(inactive.text).not.toContain('Resend')
    expect(inactive.text).not.toContain('value="changeRole"')
    expect(inactive.text).toContain('value="cancelInvite"')
    expect(inactive.text).toContain('value="removeMember"')
  })

  it('a viewer leaves; an owner deletes the workspace after confirming', async () => {
    const owner = await signUp(server.url)
    const viewer = await signUp(server.url)
    addMember(owner, viewer, 'VIEWER')
    const path = `/${owner.workspaceName}/settings`
    const left = await submit(viewer.client, path, { intent: 'leave' })
    expect(left.location).toBe('/account/workspaces')
    expect(left.page.text).toContain('Left workspace')
    expect(left.page.text).not.toContain(owner.workspaceName)
    expect((await viewer.client.get(path)).headers.get('location')).toBe('/')

    const refused = await submit(owner.client, path, { intent: 'leave' })
    expect(refused.page.text).toContain('An owner cannot leave the workspace.')
    expect((await owner.client.get(`${path}?delete=1`)).text).toContain('Yes, I am really sure!')
    const deleted = await submit(owner.client, path, { intent: 'deleteWorkspace' })
    expect(deleted.location).toBe('/account/workspaces')
    expect(deleted.page.text).toContain('Workspace deleted')
    expect(deleted.page.text).toContain('No workspaces')
  })
})
