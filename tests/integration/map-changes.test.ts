import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addMember, bundle, makeBoard, uuid } from '../support/board'
import { signUp } from '../support/client'
import { LiveStream } from '../support/live'
import { startServer, type RunningServer } from '../support/server'

/**
 * Changes that used to be written beside the change log now go through the one door (issue 32):
 * sharing and a new link are logged (never an undo step, the key in no event), a purge is a line
 * in Activity, and deleting a workspace or an account ends that workspace's open streams.
 */
let server: RunningServer
const streams: LiveStream[] = []

beforeAll(async () => {
  server = await startServer()
})
afterAll(async () => {
  for (const s of streams) s.close()
  await server?.stop()
})

async function listen(path: string, options: Parameters<typeof LiveStream.open>[2] = {}) {
  const stream = await LiveStream.open(server.url, path, options)
  streams.push(stream)
  return stream
}

describe('sharing through the door', () => {
  it('logs turning the link off and on and a new link, with no key in any event, and never as an undo step', async () => {
    const owner = await signUp(server.url, { name: 'Olive' })
    const ids = await makeBoard(owner.client)
    const firstKey = (await bundle(owner.client, ids.project)).project.externalLink as string
    const member = await listen(`/v1/projects/${ids.project}/events`, { client: owner.client })
    const link = await listen(`/v1/link/${firstKey}/events`)
    await member.next('ready')
    await link.next('ready')

    expect(
      (await owner.client.post(`/v1/features/${ids.feature}/rename`, { title: 'Renamed first' })).status,
    ).toBe(200)
    await member.next('change')
    const version = (await bundle(owner.client, ids.project)).version
    expect((await owner.client.post(`/v1/projects/${ids.project}/sharing`, { enabled: false })).status).toBe(
      200,
    )
    const off = (await member.next('change')).data
    expect(off).toMatchObject({
      version: version + 1,
      changes: [],
      summary: "Turned off the share link of project 'Map'",
    })
    await link.endedWithin(5000)
    expect((await owner.client.post(`/v1/projects/${ids.project}/sharing`, { enabled: true })).status).toBe(
      200,
    )
    expect((await member.next('change')).data).toMatchObject({
      version: version + 2,
      summary: "Turned on the share link of project 'Map'",
    })
    const renewed = await owner.client.post(`/v1/projects/${ids.project}/newlink`)
    expect(renewed.status).toBe(200)
    const newKey = renewed.json.externalLink as string
    const made = await member.next('change')
    expect(made.data).toMatchObject({
      version: version + 3,
      summary: "Made a new share link for project 'Map'",
    })
    for (const event of [off, made.data])
      expect(JSON.stringify(event)).not.toMatch(new RegExp(`${firstKey}|${newKey}`))

    const activity = (await owner.client.get(`/v1/projects/${ids.project}/activity?limit=4`)).json.items.map(
      (i: { summary: string }) => i.summary,
    )
    expect(activity.slice(0, 3)).toEqual([
      "Made a new share link for project 'Map'",
      "Turned on the share link of project 'Map'",
      "Turned off the share link of project 'Map'",
    ])
    // Undo reaches past them to the rename; the new link stays.
    const undone = await owner.client.post(`/v1/projects/${ids.project}/undo`)
    expect(undone.json.summary).toBe("Undid: Renamed feature 'Feature' to 'Renamed first'")
    const after = await bundle(owner.client, ids.project)
    expect(after.project.externalLink).toBe(newKey)
    expect(after.features[0].title).toBe('Feature')
  })

  it('refuses an editor, changing nothing and logging nothing', async () => {
    const owner = await signUp(server.url)
    const ids = await makeBoard(owner.client)
    const editor = await signUp(server.url)
    addMember(server.dbPath, owner.workspaceId, editor.account.id, 'EDITOR')
    editor.client.workspaceId = owner.workspaceId
    const before = await bundle(owner.client, ids.project)
    expect((await editor.client.post(`/v1/projects/${ids.project}/sharing`, { enabled: false })).status).toBe(
      403,
    )
    expect((await editor.client.post(`/v1/projects/${ids.project}/newlink`)).status).toBe(403)
    expect(await bundle(owner.client, ids.project)).toEqual(before)
    expect((await owner.client.get(`/v1/projects/${ids.project}/sharing`)).json.enabled).toBe(true)
  })
})

describe('the trash through the door', () => {
  it('a purge is a line in Activity and an event, and nothing else changes', async () => {
    const owner = await signUp(server.url)
    const ids = await makeBoard(owner.client)
    expect((await owner.client.delete(`/v1/features/${ids.feature}`)).status).toBe(200)
    const stream = await listen(`/v1/projects/${ids.project}/events`, { client: owner.client })
    await stream.next('ready')
    const before = await bundle(owner.client, ids.project)
    expect((await owner.client.delete(`/v1/trash/${ids.feature}`)).status).toBe(200)
    expect((await stream.next('change')).data).toMatchObject({
      version: before.version + 1,
      changes: [],
      summary: "Deleted feature 'Feature' for good",
    })
    const after = await bundle(owner.client, ids.project)
    expect({ ...after, version: before.version }).toEqual(before)
  })
})

describe('deleting a workspace or an account', () => {
  it('ends every open stream of the workspace’s maps within 5 s, members’ and the public link’s', async () => {
    const owner = await signUp(server.url)
    const ids = await makeBoard(owner.client)
    const viewer = await signUp(server.url)
    addMember(server.dbPath, owner.workspaceId, viewer.account.id, 'VIEWER')
    const key = (await bundle(owner.client, ids.project)).project.externalLink
    const watching = [
      await listen(`/v1/projects/${ids.project}/events`, { client: viewer.client }),
      await listen(`/v1/link/${key}/events`),
    ]
    for (const s of watching) await s.next('ready')
    expect((await owner.client.post('/v1/delete')).status).toBe(200)
    for (const s of watching) await s.endedWithin(5000)
  })

  it('an account deleted with the workspace it alone was in ends that workspace’s streams too', async () => {
    const owner = await signUp(server.url)
    const ids = await makeBoard(owner.client)
    const key = (await bundle(owner.client, ids.project)).project.externalLink
    const link = await listen(`/v1/link/${key}/events`)
    await link.next('ready')
    expect((await owner.client.post('/v1/account/delete')).status).toBe(200)
    await link.endedWithin(5000)
    expect((await listen(`/v1/link/${key}/events`)).status).toBe(404)
  })

  it('a refused deletion (an admin deleting the workspace) leaves every stream open', async () => {
    const owner = await signUp(server.url)
    const ids = await makeBoard(owner.client)
    const admin = await signUp(server.url)
    addMember(server.dbPath, owner.workspaceId, admin.account.id, 'ADMIN')
    admin.client.workspaceId = owner.workspaceId
    const stream = await listen(`/v1/projects/${ids.project}/events`, { client: owner.client })
    await stream.next('ready')
    expect((await admin.client.post('/v1/delete')).status).toBe(403)
    await owner.client.post(`/v1/features/${ids.feature}/rename`, { title: uuid().slice(0, 8) })
    await stream.next('change')
    expect(stream.closedByServer).toBe(false)
  })
})
