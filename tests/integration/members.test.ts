import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client, signUp } from '../support/client'
import { startServer, type RunningServer } from '../support/server'

let server: RunningServer
beforeAll(async () => {
  server = await startServer()
})
afterAll(async () => {
  await server?.stop()
})

type User = Awaited<ReturnType<typeof signUp>>

/** Puts `user` into `owner`'s workspace at `level` (directly in the database, like an accepted invite). */
function addMember(owner: User, user: User, level: string) {
  const db = new Database(server.dbPath)
  try {
    db.prepare(
      'insert into members (id, workspace_id, account_id, level, created_at) values (?, ?, ?, ?, ?)',
    ).run(crypto.randomUUID(), owner.workspaceId, user.account.id, level, new Date().toISOString())
  } finally {
    db.close()
  }
  // The same browser session, pointed at the owner's workspace.
  const client = new Client(server.url, owner.workspaceId)
  client.cookies = new Map(user.client.cookies)
  return client
}

async function team() {
  const owner = await signUp(server.url)
  const users = {
    admin: await signUp(server.url),
    editor: await signUp(server.url),
    viewer: await signUp(server.url),
  }
  const admin = addMember(owner, users.admin, 'ADMIN')
  const editor = addMember(owner, users.editor, 'EDITOR')
  const viewer = addMember(owner, users.viewer, 'VIEWER')
  const list = (await owner.client.get('/v1/members')).json as {
    id: string
    accountId: string
    level: string
  }[]
  const id = (u: User) => list.find((m) => m.accountId === u.account.id)!.id
  return {
    owner,
    admin,
    editor,
    viewer,
    ids: { owner: id(owner), admin: id(users.admin), editor: id(users.editor), viewer: id(users.viewer) },
    users,
  }
}

describe('members', () => {
  it('lists members with the SPEC shape for ADMIN and OWNER only', async () => {
    const t = await team()
    const res = await t.admin.get('/v1/members')
    expect(res.status).toBe(200)
    expect(res.json).toHaveLength(4)
    expect(Object.keys(res.json[0]).sort()).toEqual([
      'accountId',
      'createdAt',
      'email',
      'id',
      'level',
      'name',
    ])
    expect(res.json[0]).toMatchObject({ level: 'OWNER', email: t.owner.email, name: t.owner.name })
    for (const c of [t.editor, t.viewer]) expect((await c.get('/v1/members')).status).toBe(403)
    expect((await t.viewer.get('/v1/invites')).status).toBe(403)
  })

  it('owner changes a level; the change applies at the member’s next request', async () => {
    const t = await team()
    expect((await t.viewer.post('/v1/invites', { email: 'a@example.com', level: 'VIEWER' })).status).toBe(403)
    expect((await t.owner.client.post(`/v1/members/${t.ids.viewer}/level`, { level: 'ADMIN' })).status).toBe(
      200,
    )
    expect((await t.viewer.get('/v1/members')).status).toBe(200)
    expect((await t.owner.client.post(`/v1/members/${t.ids.viewer}/level`, { level: 'VIEWER' })).status).toBe(
      200,
    )
    expect((await t.viewer.get('/v1/members')).status).toBe(403)
  })

  it('nobody changes their own level', async () => {
    const t = await team()
    const own = await t.owner.client.post(`/v1/members/${t.ids.owner}/level`, { level: 'ADMIN' })
    expect(own.status).toBe(403)
    expect(own.json.message).toBe('You cannot change your own level.')
    expect((await t.admin.post(`/v1/members/${t.ids.admin}/level`, { level: 'OWNER' })).status).toBe(403)
  })

  it('an ADMIN cannot make, change or remove an OWNER', async () => {
    const t = await team()
    const promote = await t.admin.post(`/v1/members/${t.ids.editor}/level`, { level: 'OWNER' })
    expect(promote.status).toBe(403)
    expect(promote.json.message).toBe('Only an owner can make, change or remove an owner.')
    expect((await t.admin.post(`/v1/members/${t.ids.owner}/level`, { level: 'VIEWER' })).status).toBe(403)
    expect((await t.admin.delete(`/v1/members/${t.ids.owner}`)).status).toBe(403)
    // but may change and remove others
    expect((await t.admin.post(`/v1/members/${t.ids.editor}/level`, { level: 'ADMIN' })).status).toBe(200)
    expect((await t.admin.delete(`/v1/members/${t.ids.viewer}`)).status).toBe(200)
  })

  it('editors and viewers cannot change levels or remove members', async () => {
    const t = await team()
    expect((await t.editor.post(`/v1/members/${t.ids.viewer}/level`, { level: 'EDITOR' })).status).toBe(403)
    expect((await t.editor.delete(`/v1/members/${t.ids.viewer}`)).status).toBe(403)
    expect((await t.viewer.delete(`/v1/members/${t.ids.editor}`)).status).toBe(403)
  })

  it('refuses bad levels, malformed ids and other workspaces’ members', async () => {
    const t = await team()
    const other = await signUp(server.url)
    const otherId = (await other.client.get('/v1/members')).json[0].id
    expect((await t.owner.client.post(`/v1/members/${t.ids.viewer}/level`, { level: 'KING' })).status).toBe(
      400,
    )
    expect((await t.owner.client.post(`/v1/members/${t.ids.viewer}/level`, {})).status).toBe(400)
    expect((await t.owner.client.post('/v1/members/not-a-uuid/level', { level: 'EDITOR' })).status).toBe(400)
    expect((await t.owner.client.post(`/v1/members/${otherId}/level`, { level: 'EDITOR' })).status).toBe(404)
    expect((await t.owner.client.delete(`/v1/members/${otherId}`)).status).toBe(404)
  })

  it('a removed member gets 403 on the next request', async () => {
    const t = await team()
    expect((await t.editor.get('/v1/projects')).status).not.toBe(403)
    expect((await t.owner.client.delete(`/v1/members/${t.ids.editor}`)).status).toBe(200)
    const next = await t.editor.get('/v1/members')
    expect(next.status).toBe(403)
    expect(next.json.error).toBe('not_a_member')
    expect((await t.editor.post('/v1/leave')).status).toBe(403)
  })

  it('a workspace always keeps an OWNER: a second owner may demote the first, never the last', async () => {
    const t = await team()
    expect((await t.owner.client.post(`/v1/members/${t.ids.admin}/level`, { level: 'OWNER' })).status).toBe(
      200,
    )
    expect((await t.admin.post(`/v1/members/${t.ids.owner}/level`, { level: 'EDITOR' })).status).toBe(200)
    // t.admin is now the only OWNER and cannot demote themselves
    expect((await t.admin.post(`/v1/members/${t.ids.admin}/level`, { level: 'EDITOR' })).status).toBe(403)
    expect((await t.admin.delete(`/v1/members/${t.ids.admin}`)).status).toBe(403)
    const members = (await t.admin.get('/v1/members')).json as { level: string }[]
    expect(members.filter((m) => m.level === 'OWNER')).toHaveLength(1)
  })
})

describe('leave and delete workspace', () => {
  it('non-owners leave; an OWNER is refused', async () => {
    const t = await team()
    const refused = await t.owner.client.post('/v1/leave')
    expect(refused.status).toBe(403)
    expect(refused.json.error).toBe('owner_cannot_leave')
    expect((await t.viewer.post('/v1/leave')).status).toBe(200)
    const app = await t.viewer.get('/v1/account/app')
    expect(app.json.workspaces.map((w: { id: string }) => w.id)).not.toContain(t.owner.workspaceId)
  })

  it('only an OWNER deletes a workspace, which removes everything in it', async () => {
    const t = await team()
    expect((await t.admin.post('/v1/delete')).status).toBe(403)
    await t.owner.client.post('/v1/invites', { email: 'pending@example.com', level: 'VIEWER' })
    expect((await t.owner.client.post('/v1/delete')).status).toBe(200)
    expect((await t.editor.get('/v1/members')).status).toBe(403)
    const db = new Database(server.dbPath, { readonly: true })
    const counts = ['members', 'invites', 'subscriptions', 'workspaces'].map(
      (table) =>
        (
          db
            .prepare(
              `select count(*) as n from ${table} where ${table === 'workspaces' ? 'id' : 'workspace_id'} = ?`,
            )
            .get(t.owner.workspaceId) as { n: number }
        ).n,
    )
    db.close()
    expect(counts).toEqual([0, 0, 0, 0])
  })
})

describe('invites', () => {
  it('ADMIN and OWNER invite; viewers and editors cannot; an ADMIN cannot invite an OWNER', async () => {
    const t = await team()
    expect((await t.editor.post('/v1/invites', { email: 'e@example.com', level: 'VIEWER' })).status).toBe(403)
    expect((await t.admin.post('/v1/invites', { email: 'boss@example.com', level: 'OWNER' })).status).toBe(
      403,
    )
    const ok = await t.admin.post('/v1/invites', { email: 'New@Example.com' })
    expect(ok.status).toBe(200)
    expect(ok.json).toMatchObject({ email: 'new@example.com', level: 'VIEWER' })
    expect(
      (await t.owner.client.post('/v1/invites', { email: 'boss@example.com', level: 'OWNER' })).status,
    ).toBe(200)
    const list = (await t.admin.get('/v1/invites')).json as { id: string; email: string; level: string }[]
    expect(list.map((i) => i.email).sort()).toEqual(['boss@example.com', 'new@example.com'])
    expect(JSON.stringify(list)).not.toMatch(/code/i)
  })

  it('validates the invite body', async () => {
    const t = await team()
    const bad = await t.owner.client.post('/v1/invites', { email: 'nope', level: 'VIEWER' })
    expect(bad.status).toBe(400)
    expect(bad.json.error).toBe('email_invalid')
    expect((await t.owner.client.post('/v1/invites', { email: 'a@b.co', level: 'GOD' })).json.error).toBe(
      'level_invalid',
    )
  })

  it('cancel: ADMIN/OWNER only, never an OWNER invite by an ADMIN', async () => {
    const t = await team()
    const ownerInvite = (await t.owner.client.post('/v1/invites', { email: 'o@example.com', level: 'OWNER' }))
      .json
    const viewerInvite = (
      await t.owner.client.post('/v1/invites', { email: 'v@example.com', level: 'VIEWER' })
    ).json
    expect((await t.editor.delete(`/v1/invites/${viewerInvite.id}`)).status).toBe(403)
    expect((await t.admin.delete(`/v1/invites/${ownerInvite.id}`)).status).toBe(403)
    expect((await t.admin.post(`/v1/invites/${ownerInvite.id}/resend`)).status).toBe(403)
    expect((await t.admin.delete(`/v1/invites/${viewerInvite.id}`)).status).toBe(200)
    expect((await t.owner.client.delete(`/v1/invites/${ownerInvite.id}`)).status).toBe(200)
    expect((await t.owner.client.delete(`/v1/invites/${ownerInvite.id}`)).status).toBe(404)
  })

  it('an inactive plan stops sending, resending and role changes, but not cancelling, removing, leaving or deleting', async () => {
    const t = await team()
    const invite = (await t.owner.client.post('/v1/invites', { email: 'late@example.com', level: 'VIEWER' }))
      .json
    const db = new Database(server.dbPath)
    db.prepare(`update subscriptions set external_status = 'canceled' where workspace_id = ?`).run(
      t.owner.workspaceId,
    )
    db.close()
    const send = await t.owner.client.post('/v1/invites', { email: 'more@example.com', level: 'VIEWER' })
    expect(send.status).toBe(403)
    expect(send.json.message).toBe('The plan of this workspace is inactive.')
    expect((await t.owner.client.post(`/v1/invites/${invite.id}/resend`)).status).toBe(403)
    expect((await t.owner.client.post(`/v1/members/${t.ids.viewer}/level`, { level: 'EDITOR' })).status).toBe(
      403,
    )
    expect((await t.owner.client.delete(`/v1/invites/${invite.id}`)).status).toBe(200)
    expect((await t.owner.client.delete(`/v1/members/${t.ids.viewer}`)).status).toBe(200)
    // Reads, leaving and deleting the workspace keep working too.
    expect((await t.editor.get('/v1/projects')).status).toBe(200)
    expect((await t.editor.post('/v1/leave')).status).toBe(200)
    expect((await t.owner.client.post('/v1/delete')).status).toBe(200)
    expect((await t.owner.client.get('/v1/projects')).status).toBe(403)
  })
})

describe('account deletion', () => {
  it('is refused for the last OWNER of a workspace with other members', async () => {
    const t = await team()
    const res = await t.owner.client.post('/v1/account/delete')
    expect(res.status).toBe(403)
    expect(res.json.error).toBe('last_owner')
    expect(res.json.message).toContain(t.owner.workspaceName)
    expect((await t.owner.client.get('/v1/account/app')).status).toBe(200)
  })

  it('deletes the account, its sessions and the workspaces where it was alone, keeping shared ones', async () => {
    const t = await team()
    // The editor also owns their own workspace, alone.
    const res = await t.editor.post('/v1/account/delete')
    expect(res.status).toBe(200)
    expect((await t.editor.get('/v1/account/app')).status).toBe(401)
    expect((await t.users.editor.client.get('/v1/account/app')).status).toBe(401)
    const login = await new Client(server.url).post('/v1/users/login', {
      email: t.users.editor.email,
      password: t.users.editor.password,
    })
    expect(login.status).toBe(401)
    const members = (await t.owner.client.get('/v1/members')).json as unknown[]
    expect(members).toHaveLength(3)
    const db = new Database(server.dbPath, { readonly: true })
    const ws = db
      .prepare('select count(*) as n from workspaces where name = ?')
      .get(t.users.editor.workspaceName) as { n: number }
    db.close()
    expect(ws.n).toBe(0)
  })
})
