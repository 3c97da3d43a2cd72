import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addMember, bundle, makeBoard, uuid } from '../support/board'
import { Client, signUp } from '../support/client'
import { LiveStream } from '../support/live'
import { startServer, type RunningServer } from '../support/server'

/** Each member's view of a board (CONTRACT §15): folds and zoom, per member and project, never a change. */
let server: RunningServer
beforeAll(async () => {
  server = await startServer()
})
afterAll(async () => {
  await server?.stop()
})

const DEFAULT = { collapsedWorkflows: [], collapsedMilestones: [], zoom: 100 }

async function teammate(owner: Awaited<ReturnType<typeof signUp>>, level: 'VIEWER' | 'EDITOR') {
  const user = await signUp(server.url)
  addMember(server.dbPath, owner.workspaceId, user.account.id, level)
  user.client.workspaceId = owner.workspaceId
  return user.client
}

describe('GET and PUT /v1/projects/{id}/view', () => {
  it('keeps each member’s folds and zoom per project; unknown ids are ignored', async () => {
    const owner = await signUp(server.url)
    const ids = await makeBoard(owner.client)
    const other = await makeBoard(owner.client)
    const viewer = await teammate(owner, 'VIEWER')
    const path = `/v1/projects/${ids.project}/view`
    expect(await owner.client.get(path)).toMatchObject({ status: 200, json: DEFAULT })

    const mine = {
      collapsedWorkflows: [ids.workflow, uuid()],
      collapsedMilestones: [ids.milestone],
      zoom: 50,
    }
    const put = await owner.client.put(path, mine)
    expect(put).toMatchObject({
      status: 200,
      json: { collapsedWorkflows: [ids.workflow], collapsedMilestones: [ids.milestone], zoom: 50 },
    })
    // The same on another device: a new session of the same account.
    const again = await owner.client.get(path)
    expect(again.json).toEqual({
      collapsedWorkflows: [ids.workflow],
      collapsedMilestones: [ids.milestone],
      zoom: 50,
    })

    // Another project of the same member, and another member on the same project, are untouched.
    expect((await owner.client.get(`/v1/projects/${other.project}/view`)).json).toEqual(DEFAULT)
    expect((await viewer.get(path)).json).toEqual(DEFAULT)

    // A VIEWER keeps a view of their own.
    const viewerPut = await viewer.put(path, {
      collapsedWorkflows: [],
      collapsedMilestones: [ids.milestone],
      zoom: 25,
    })
    expect(viewerPut).toMatchObject({ status: 200, json: { collapsedMilestones: [ids.milestone], zoom: 25 } })
    expect((await owner.client.get(path)).json.zoom).toBe(50)

    // A goal deleted since is left out of the view.
    expect((await owner.client.delete(`/v1/workflows/${ids.workflow}`)).status).toBe(200)
    expect((await owner.client.get(path)).json.collapsedWorkflows).toEqual([])
  })

  it('is never a change to the map: no event, no version, no undo step', async () => {
    const owner = await signUp(server.url)
    const ids = await makeBoard(owner.client)
    const before = await bundle(owner.client, ids.project)
    const stream = await LiveStream.open(server.url, `/v1/projects/${ids.project}/events`, {
      client: owner.client,
    })
    expect((await stream.next('ready')).data.version).toBe(before.version)
    const put = await owner.client.put(`/v1/projects/${ids.project}/view`, {
      collapsedWorkflows: [ids.workflow],
      collapsedMilestones: [],
      zoom: 75,
    })
    expect(put.status).toBe(200)
    const events = await stream.settle(500)
    stream.close()
    expect(events.filter((e) => e.event === 'change')).toEqual([])
    expect((await bundle(owner.client, ids.project)).version).toBe(before.version)
    // The last undo step is still the map's last change, not the view.
    const undo = await owner.client.post(`/v1/projects/${ids.project}/undo`)
    expect(undo.status).toBe(200)
    expect((await bundle(owner.client, ids.project)).version).toBe(before.version + 1)
    expect((await owner.client.get(`/v1/projects/${ids.project}/view`)).json.zoom).toBe(75)
  })

  it('refuses bad input, strangers, no session, and another workspace’s project', async () => {
    const owner = await signUp(server.url)
    const ids = await makeBoard(owner.client)
    const path = `/v1/projects/${ids.project}/view`
    const bad = await owner.client.put(path, { ...DEFAULT, zoom: 60 })
    expect(bad).toMatchObject({ status: 400, json: { error: 'zoom_invalid' } })
    expect(await owner.client.put(path, { ...DEFAULT, collapsedWorkflows: 'all' })).toMatchObject({
      status: 400,
      json: { error: 'collapsed_workflows_invalid' },
    })
    expect((await owner.client.put(path, '[')).status).toBe(400)
    expect((await owner.client.get('/v1/projects/not-a-uuid/view')).status).toBe(400)

    expect((await new Client(server.url).get(path)).status).toBe(401)
    expect((await new Client(server.url).put(path, DEFAULT)).status).toBe(401)

    // A member of another workspace: naming the owner's workspace is 403; their own, 404.
    const stranger = await signUp(server.url)
    expect((await stranger.client.get(path, { Workspace: owner.workspaceId })).status).toBe(403)
    expect(await stranger.client.get(path)).toMatchObject({
      status: 404,
      json: { error: 'project_not_found' },
    })
    expect((await stranger.client.put(path, { ...DEFAULT, zoom: 25 })).status).toBe(404)
    expect((await owner.client.get(path)).json).toEqual(DEFAULT)
    expect((await owner.client.get(`/v1/projects/${uuid()}/view`)).status).toBe(404)
  })
})
