import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addMember, bundle, makeBoard, send, uuid, writeCalls } from '../support/board'
import { Client, signUp } from '../support/client'
import { startServer, type RunningServer } from '../support/server'

let server: RunningServer
let owner: Awaited<ReturnType<typeof signUp>>
let viewer: Client
let editor: Client
let stranger: Awaited<ReturnType<typeof signUp>>
let ids: Awaited<ReturnType<typeof makeBoard>>

beforeAll(async () => {
  server = await startServer()
  owner = await signUp(server.url)
  ids = await makeBoard(owner.client)
  const v = await signUp(server.url)
  addMember(server.dbPath, owner.workspaceId, v.account.id, 'VIEWER')
  viewer = v.client
  viewer.workspaceId = owner.workspaceId
  const e = await signUp(server.url, { name: 'Eddie Editor' })
  addMember(server.dbPath, owner.workspaceId, e.account.id, 'EDITOR')
  editor = e.client
  editor.workspaceId = owner.workspaceId
  stranger = await signUp(server.url)
})
afterAll(async () => {
  await server?.stop()
})

async function snapshot() {
  const app = await owner.client.get('/v1/account/app')
  return { bundle: await bundle(owner.client, ids.project), workspaces: app.json.workspaces }
}

describe('authorisation matrix: every write route is refused and changes nothing', () => {
  it('without a session: 401', async () => {
    const before = await snapshot()
    const anonymous = new Client(server.url, owner.workspaceId)
    for (const call of writeCalls(ids)) {
      const res = await send(anonymous, call)
      expect([call.name, res.status, res.json?.error]).toEqual([call.name, 401, 'unauthorized'])
    }
    expect(await snapshot()).toEqual(before)
  })

  it('as a VIEWER of the workspace: 403', async () => {
    const before = await snapshot()
    for (const call of writeCalls(ids)) {
      const res = await send(viewer, call)
      expect([call.name, res.status, res.json?.error]).toEqual([call.name, 403, 'level_too_low'])
    }
    expect(await snapshot()).toEqual(before)
  })

  it('as a member of another workspace with their own Workspace header: 404 for ids of this one', async () => {
    const before = await snapshot()
    // Creating a project or toggling sharing in their own workspace is theirs to do: not a cross-workspace call.
    const calls = writeCalls(ids).filter(
      (c) => c.name !== 'project create' && c.name !== 'allow external sharing',
    )
    for (const call of calls) {
      const res = await send(stranger.client, call)
      expect([call.name, res.status]).toEqual([call.name, 404])
    }
    expect(await snapshot()).toEqual(before)
    expect((await stranger.client.get(`/v1/projects/${ids.project}`)).status).toBe(404)
  })

  it("as a member of another workspace with this workspace's header: 403", async () => {
    const before = await snapshot()
    for (const call of writeCalls(ids)) {
      const res = await stranger.client.request(call.method, call.path, call.body, {
        Workspace: owner.workspaceId,
      })
      expect([call.name, res.status, res.json?.error]).toEqual([call.name, 403, 'not_a_member'])
    }
    expect(await snapshot()).toEqual(before)
  })
})

describe('reads', () => {
  it('need membership at any level', async () => {
    expect((await viewer.get(`/v1/projects/${ids.project}`)).status).toBe(200)
    expect((await viewer.get('/v1/projects')).json.map((p: any) => p.id)).toContain(ids.project)
    expect((await new Client(server.url, owner.workspaceId).get(`/v1/projects/${ids.project}`)).status).toBe(
      401,
    )
    expect((await new Client(server.url, owner.workspaceId).get('/v1/projects')).status).toBe(401)
    expect(
      (await stranger.client.get(`/v1/projects/${ids.project}`, { Workspace: owner.workspaceId })).status,
    ).toBe(403)
    expect((await stranger.client.get('/v1/projects')).json).not.toContainEqual(
      expect.objectContaining({ id: ids.project }),
    )
  })
})

describe('comments', () => {
  it('can be edited and deleted only by their author', async () => {
    const mine = uuid()
    const created = await editor.post(`/v1/featurecomments/${mine}`, {
      featureId: ids.feature,
      post: 'By Eddie',
    })
    expect(created.json).toMatchObject({ createdByName: 'Eddie Editor' })
    expect(
      await owner.client.post(`/v1/featurecomments/${mine}/post`, { description: 'Hijack' }),
    ).toMatchObject({ status: 403, json: { error: 'not_author' } })
    expect(await owner.client.delete(`/v1/featurecomments/${mine}`)).toMatchObject({
      status: 403,
      json: { error: 'not_author' },
    })
    expect(
      (await editor.post(`/v1/featurecomments/${ids.comment}/post`, { description: 'Hijack' })).status,
    ).toBe(403)
    const b = await bundle(owner.client, ids.project)
    expect(b.featureComments.find((x: any) => x.id === mine).post).toBe('By Eddie')
    expect((await editor.post(`/v1/featurecomments/${mine}/post`, { description: 'Fixed' })).json.post).toBe(
      'Fixed',
    )
    expect((await editor.delete(`/v1/featurecomments/${mine}`)).status).toBe(200)
  })

  it('an EDITOR can write cards; createdBy and lastModifiedByName follow the writer', async () => {
    const res = await editor.post(`/v1/features/${uuid()}`, {
      milestoneId: ids.milestone,
      subWorkflowId: ids.subworkflow,
      title: 'By Eddie',
    })
    expect(res.json).toMatchObject({ createdByName: 'Eddie Editor', lastModifiedByName: 'Eddie Editor' })
    const renamed = await owner.client.post(`/v1/features/${res.json.id}/rename`, { title: 'Owned' })
    expect(renamed.json).toMatchObject({
      createdByName: 'Eddie Editor',
      lastModifiedByName: owner.name,
      createdBy: res.json.createdBy,
    })
  })
})
