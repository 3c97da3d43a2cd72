import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addMember, bundle, makeBoard, uuid } from '../support/board'
import { Client, signUp } from '../support/client'
import { LiveStream } from '../support/live'
import { startServer, type RunningServer } from '../support/server'

/** CONTRACT §7's trash against the real built server. */
let server: RunningServer
beforeAll(async () => {
  server = await startServer()
})
afterAll(async () => {
  await server?.stop()
})

const withoutVersion = ({ version: _version, ...rest }: { version: number }) => rest
function sql(statement: string, ...params: unknown[]) {
  const db = new Database(server.dbPath)
  try {
    const prepared = db.prepare(statement)
    return prepared.reader ? prepared.all(...params) : prepared.run(...params)
  } finally {
    db.close()
  }
}

describe('project trash', () => {
  it('keeps deleted cards with everything under them, restores them to the same place, and deletes them for good', async () => {
    const owner = await signUp(server.url, { name: 'Ann' })
    const ids = await makeBoard(owner.client)
    const c = owner.client
    const [second, lone] = [uuid(), uuid()]
    await c.post(`/v1/features/${second}`, {
      milestoneId: ids.milestone,
      subWorkflowId: ids.subworkflow,
      title: 'Second',
    })
    await c.post(`/v1/features/${lone}`, {
      milestoneId: ids.milestone,
      subWorkflowId: ids.subworkflow,
      title: 'Lone',
    })
    const start = await bundle(c, ids.project)
    const stream = await LiveStream.open(server.url, `/v1/projects/${ids.project}/events`, { client: c })
    await stream.next('ready')

    expect((await c.delete(`/v1/features/${lone}`)).status).toBe(200)
    expect((await stream.next('change')).data.changes).toEqual([{ op: 'delete', kind: 'feature', id: lone }])
    expect((await c.delete(`/v1/subworkflows/${ids.subworkflow}`)).status).toBe(200)
    const gone = await bundle(c, ids.project)
    expect(gone.features).toHaveLength(0)
    expect((await c.get(`/v1/link/${gone.project.externalLink}`)).json.features).toHaveLength(0)

    const list = await c.get(`/v1/projects/${ids.project}/trash`)
    expect(list.status).toBe(200)
    expect(list.json.items).toEqual([
      {
        id: ids.subworkflow,
        kind: 'subWorkflow',
        title: 'Activity',
        deletedAt: expect.any(String),
        deletedBy: { memberId: expect.any(String), name: 'Ann' },
        cards: 3,
      },
      expect.objectContaining({ id: lone, kind: 'feature', title: 'Lone', cards: 1 }),
    ])

    // The lone feature's activity is itself in the trash.
    expect(await c.post(`/v1/trash/${lone}/restore`)).toMatchObject({
      status: 409,
      json: { error: 'parent_missing' },
    })
    const restored = await c.post(`/v1/trash/${ids.subworkflow}/restore`)
    expect(restored.status).toBe(200)
    expect(restored.json).toMatchObject({ id: ids.subworkflow, kind: 'subworkflow', title: 'Activity' })
    expect((await c.post(`/v1/trash/${lone}/restore`)).status).toBe(200)
    expect(withoutVersion(await bundle(c, ids.project))).toEqual(withoutVersion(start))
    expect((await c.get(`/v1/projects/${ids.project}/trash`)).json.items).toEqual([])
    const activity = (await c.get(`/v1/projects/${ids.project}/activity?limit=2`)).json.items.map(
      (i: any) => i.summary,
    )
    expect(activity).toEqual(["Restored feature 'Lone'", "Restored activity 'Activity' (2 features)"])

    // Delete forever: gone from the trash, and its delete can no longer be undone.
    await c.delete(`/v1/features/${second}`)
    expect((await c.delete(`/v1/trash/${second}`)).status).toBe(200)
    expect((await c.get(`/v1/projects/${ids.project}/trash`)).json.items).toEqual([])
    expect((await c.post(`/v1/trash/${second}/restore`)).status).toBe(404)
    expect((await c.post(`/v1/projects/${ids.project}/undo`)).json.error).toBe('undo_conflict')
    expect((await c.delete(`/v1/trash/${uuid()}`)).status).toBe(404)
    stream.close()
  })

  it('undo of a delete takes it out of the trash; a restore is itself undoable', async () => {
    const owner = await signUp(server.url)
    const ids = await makeBoard(owner.client)
    const c = owner.client
    await c.delete(`/v1/milestones/${ids.milestone}`)
    expect((await c.get(`/v1/projects/${ids.project}/trash`)).json.items).toHaveLength(1)
    await c.post(`/v1/projects/${ids.project}/undo`)
    expect((await c.get(`/v1/projects/${ids.project}/trash`)).json.items).toHaveLength(0)
    await c.post(`/v1/projects/${ids.project}/redo`)
    expect((await c.get(`/v1/projects/${ids.project}/trash`)).json.items.map((i: any) => i.title)).toEqual([
      'Release',
    ])
    await c.post(`/v1/trash/${ids.milestone}/restore`)
    expect((await c.post(`/v1/projects/${ids.project}/undo`)).json.summary).toBe(
      "Undid: Restored release 'Release' (1 feature)",
    )
    expect((await bundle(c, ids.project)).milestones).toHaveLength(0)
  })
})

describe('workspace trash', () => {
  it('keeps a deleted project, lists it, restores it whole with its history going on', async () => {
    const owner = await signUp(server.url)
    const ids = await makeBoard(owner.client)
    const c = owner.client
    const start = await bundle(c, ids.project)
    expect((await c.delete(`/v1/projects/${ids.project}`)).status).toBe(200)
    expect((await c.get(`/v1/projects/${ids.project}`)).status).toBe(404)
    expect((await c.get('/v1/projects')).json).toEqual([])
    const list = await c.get('/v1/trash')
    expect(list.json.items).toEqual([
      expect.objectContaining({ id: ids.project, kind: 'project', title: 'Map', cards: 5 }),
    ])
    const restored = await c.post(`/v1/trash/${ids.project}/restore`)
    expect(restored.json).toMatchObject({ id: ids.project, kind: 'project', title: 'Map' })
    const back = await bundle(c, ids.project)
    expect(withoutVersion(back)).toEqual(withoutVersion(start))
    expect(back.version).toBe(start.version + 2)
    expect((await c.get('/v1/trash')).json.items).toEqual([])
  })

  it('purges entries after 30 days by itself (on start), and a deleted workspace takes its trash and log along', async () => {
    const owner = await signUp(server.url)
    const ids = await makeBoard(owner.client)
    const c = owner.client
    await c.delete(`/v1/features/${ids.feature}`)
    const other = uuid()
    await c.post(`/v1/projects/${other}`, { title: 'Old project' })
    await c.delete(`/v1/projects/${other}`)
    expect((await c.get('/v1/trash')).json.items).toHaveLength(1)
    // Move the deletes' dates 31 days back, then restart: the server purges on start.
    await server.stop()
    const db = new Database(server.dbPath)
    db.prepare("update trash set deleted_at = '2000-01-01T00:00:00.000Z' where workspace_id = ?").run(
      owner.workspaceId,
    )
    db.close()
    server = await startServer({}, { dir: server.dir })
    const client = new Client(server.url, owner.workspaceId)
    client.cookies = c.cookies
    expect((await client.get('/v1/trash')).json.items).toEqual([])
    expect((await client.get(`/v1/projects/${ids.project}/trash`)).json.items).toEqual([])
    expect((await client.post(`/v1/trash/${ids.feature}/restore`)).status).toBe(404)
    expect(sql('select count(*) as n from project_changes where project_id = ?', other)).toEqual([{ n: 0 }])

    await client.delete(`/v1/milestones/${ids.milestone}`)
    expect(sql('select count(*) as n from trash where workspace_id = ?', owner.workspaceId)).toEqual([
      { n: 1 },
    ])
    expect((await client.post('/v1/delete')).status).toBe(200)
    expect(sql('select count(*) as n from trash where workspace_id = ?', owner.workspaceId)).toEqual([
      { n: 0 },
    ])
    expect(
      sql('select count(*) as n from project_changes where workspace_id = ?', owner.workspaceId),
    ).toEqual([{ n: 0 }])
  })
})

describe('who may', () => {
  it('VIEWERs and inactive plans list the trash but cannot restore or purge; another workspace is 404', async () => {
    const owner = await signUp(server.url)
    const ids = await makeBoard(owner.client)
    await owner.client.delete(`/v1/features/${ids.feature}`)
    const viewer = await signUp(server.url)
    addMember(server.dbPath, owner.workspaceId, viewer.account.id, 'VIEWER')
    viewer.client.workspaceId = owner.workspaceId
    expect((await viewer.client.get(`/v1/projects/${ids.project}/trash`)).json.items).toHaveLength(1)
    expect((await viewer.client.get('/v1/trash')).status).toBe(200)
    expect((await viewer.client.post(`/v1/trash/${ids.feature}/restore`)).status).toBe(403)
    expect((await viewer.client.delete(`/v1/trash/${ids.feature}`)).status).toBe(403)

    sql(
      "update subscriptions set expiration_date = '2000-01-01T00:00:00.000Z' where workspace_id = ?",
      owner.workspaceId,
    )
    expect((await owner.client.get(`/v1/projects/${ids.project}/trash`)).status).toBe(200)
    expect(await owner.client.post(`/v1/trash/${ids.feature}/restore`)).toMatchObject({
      status: 403,
      json: { error: 'plan_inactive' },
    })
    expect((await owner.client.post(`/v1/projects/${ids.project}/undo`)).status).toBe(403)
    sql('update subscriptions set expiration_date = null where workspace_id = ?', owner.workspaceId)

    const stranger = await signUp(server.url)
    expect((await stranger.client.get(`/v1/projects/${ids.project}/trash`)).status).toBe(404)
    expect((await stranger.client.post(`/v1/trash/${ids.feature}/restore`)).status).toBe(404)
    expect((await stranger.client.delete(`/v1/trash/${ids.feature}`)).status).toBe(404)
    expect((await owner.client.get(`/v1/projects/${ids.project}/trash`)).json.items).toHaveLength(1)
  })
})
