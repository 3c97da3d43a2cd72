import Database from 'better-sqlite3'
import crypto from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client, signUp } from '../support/client'
import { startServer, type RunningServer } from '../support/server'

/**
 * Each request's session and membership are kept between requests while nothing that decides who
 * may do what was written (issue 49, app/lib/db/access-cache.server.ts). Whatever changes them,
 * through the app or behind its back (another process on the same file), the very next request
 * sees it, on the main thread and on the page threads alike.
 */
let server: RunningServer
beforeAll(async () => {
  server = await startServer()
})
afterAll(async () => {
  await server?.stop()
})

/** A write made by another process on the same database file. */
function outside(sqlText: string, ...params: unknown[]) {
  const db = new Database(server.dbPath)
  try {
    db.prepare(sqlText).run(...params)
  } finally {
    db.close()
  }
}

async function memberOf(owner: Awaited<ReturnType<typeof signUp>>, level: string) {
  const user = await signUp(server.url)
  outside(
    'insert into members (id, workspace_id, account_id, level, created_at) values (?, ?, ?, ?, ?)',
    crypto.randomUUID(),
    owner.workspaceId,
    user.account.id,
    level,
    new Date().toISOString(),
  )
  const client = new Client(server.url, owner.workspaceId)
  client.cookies = new Map(user.client.cookies)
  return { user, client }
}

const createProject = (client: Client) =>
  client.post(`/v1/projects/${crypto.randomUUID()}`, { title: 'Kept?' })

describe('kept session and membership', () => {
  it('a level lowered through the app is refused at the next write', async () => {
    const owner = await signUp(server.url)
    const { user, client } = await memberOf(owner, 'EDITOR')
    for (let i = 0; i < 3; i++) expect((await createProject(client)).status).toBe(200)
    const members = (await owner.client.get('/v1/members')).json as { id: string; accountId: string }[]
    const memberId = members.find((m) => m.accountId === user.account.id)!.id
    expect((await owner.client.post(`/v1/members/${memberId}/level`, { level: 'VIEWER' })).status).toBe(200)
    expect((await createProject(client)).status).toBe(403)
  })

  it('a membership removed by another process is refused at the next request, also for the page', async () => {
    const owner = await signUp(server.url)
    const { user, client } = await memberOf(owner, 'EDITOR')
    expect((await createProject(client)).status).toBe(200)
    expect((await client.get(`/${owner.workspaceName}`)).status).toBe(200)
    outside(
      'delete from members where account_id = ? and workspace_id = ?',
      user.account.id,
      owner.workspaceId,
    )
    expect((await createProject(client)).status).toBe(403)
    expect((await client.get('/v1/projects')).status).toBe(403)
    const page = await client.get(`/${owner.workspaceName}`)
    expect(page.status).toBe(302) // SPEC §2: an unknown workspace sends to /
    expect(page.headers.get('location')).toBe('/')
  })

  it('a plan ended by another process makes the next write refused as view only', async () => {
    const owner = await signUp(server.url)
    expect((await createProject(owner.client)).status).toBe(200)
    outside(
      "update subscriptions set level = 'BASIC', external_status = 'canceled', expiration_date = ? where workspace_id = ?",
      new Date(Date.now() - 60_000).toISOString(),
      owner.workspaceId,
    )
    const refused = await createProject(owner.client)
    expect(refused.status).toBe(403)
    expect(refused.json.error).toBe('plan_inactive')
  })

  it('a log-out ends the session for the next request on the API and on pages', async () => {
    const owner = await signUp(server.url)
    const copy = new Client(server.url, owner.workspaceId)
    copy.cookies = new Map(owner.client.cookies)
    expect((await copy.get('/v1/projects')).status).toBe(200)
    expect((await copy.get(`/${owner.workspaceName}`)).status).toBe(200)
    expect((await owner.client.post('/v1/users/logout')).status).toBe(200)
    expect((await copy.get('/v1/projects')).status).toBe(401)
    const page = await copy.get(`/${owner.workspaceName}`)
    expect(page.status).toBe(302)
    expect(page.headers.get('location')).toMatch(/^\/account\/login/)
  })

  it('a session deleted by another process, or a renamed account, is seen at once', async () => {
    const owner = await signUp(server.url)
    const project = crypto.randomUUID()
    expect((await owner.client.post(`/v1/projects/${project}`, { title: 'Named' })).status).toBe(200)
    outside('update accounts set name = ? where id = ?', 'Renamed Elsewhere', owner.account.id)
    expect((await owner.client.post(`/v1/projects/${project}/rename`, { title: 'Again' })).status).toBe(200)
    const activity = (await owner.client.get(`/v1/projects/${project}/activity`)).json
    expect(activity.items[0].by.name).toBe('Renamed Elsewhere')
    outside('delete from sessions where account_id = ?', owner.account.id)
    expect((await owner.client.get('/v1/projects')).status).toBe(401)
  })
})
