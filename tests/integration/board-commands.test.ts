import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addMember, bundle, makeBoard, uuid } from '../support/board'
import { Client, signUp } from '../support/client'
import { startServer, type RunningServer } from '../support/server'

/**
 * The board's write path (`POST /{workspace}/projects/{id}/commands`, sent by the page's outbox):
 * the same checks and model as /v1, and safe to send again after a lost answer.
 */
let server: RunningServer
let owner: Awaited<ReturnType<typeof signUp>>
let viewer: Client
let stranger: Awaited<ReturnType<typeof signUp>>
let ids: Awaited<ReturnType<typeof makeBoard>>
let commands: string

beforeAll(async () => {
  server = await startServer()
  owner = await signUp(server.url)
  ids = await makeBoard(owner.client)
  commands = `/${owner.workspaceName}/projects/${ids.project}/commands`
  const v = await signUp(server.url)
  addMember(server.dbPath, owner.workspaceId, v.account.id, 'VIEWER')
  viewer = v.client
  stranger = await signUp(server.url)
})
afterAll(async () => {
  await server?.stop()
})

const rename = (title: string) => ({ type: 'card.rename', kind: 'feature', id: ids.feature, title })
const titleOf = async (id: string) =>
  (await bundle(owner.client, ids.project)).features.find((f: { id: string }) => f.id === id)?.title

describe('the board command route', () => {
  it('runs a command for an editor and answers the entity', async () => {
    const res = await owner.client.post(commands, rename('Renamed'))
    expect(res.status).toBe(200)
    expect(res.json).toMatchObject({ ok: true, entity: { id: ids.feature, title: 'Renamed' } })
    expect(await titleOf(ids.feature)).toBe('Renamed')
  })

  it('answers a card edit with the version its live event carries and the member’s undo state, so the page reloads nothing', async () => {
    const before = (await bundle(owner.client, ids.project)).version
    const res = await owner.client.post(commands, rename('Renamed again'))
    expect(res.json).toMatchObject({
      ok: true,
      version: before + 1,
      history: { undo: "Renamed feature 'Renamed' to 'Renamed again'", redo: null },
    })
    expect((await bundle(owner.client, ids.project)).version).toBe(before + 1)
    expect((await owner.client.post(commands, rename('Renamed'))).json).toMatchObject({
      version: before + 2,
      history: { undo: "Renamed feature 'Renamed again' to 'Renamed'" },
    })
    // A path naming another workspace's project, with a card of one's own: done, and nothing told of that project.
    const own = await makeBoard(stranger.client)
    const foreign = await stranger.client.post(
      `/${stranger.workspaceName}/projects/${ids.project}/commands`,
      {
        type: 'card.rename',
        kind: 'feature',
        id: own.feature,
        title: 'Mine',
      },
    )
    expect(foreign.status).toBe(200)
    expect(foreign.json).not.toHaveProperty('version')
    expect(foreign.json).not.toHaveProperty('history')
  })

  it('refuses, in the /v1 error shape, whoever may not write, and changes nothing', async () => {
    const anonymous = new Client(server.url)
    expect(await anonymous.post(commands, rename('Anon'))).toMatchObject({
      status: 401,
      json: { error: 'unauthorized' },
    })
    expect(await viewer.post(commands, rename('Viewer'))).toMatchObject({
      status: 403,
      json: { error: 'level_too_low' },
    })
    // Not a member of the workspace the path names.
    expect(await stranger.client.post(commands, rename('Stranger'))).toMatchObject({ status: 404 })
    // Their own workspace in the path, this workspace's card in the command.
    const ownPath = `/${stranger.workspaceName}/projects/${ids.project}/commands`
    expect(await stranger.client.post(ownPath, rename('Stranger'))).toMatchObject({ status: 404 })
    expect(await titleOf(ids.feature)).toBe('Renamed')
  })

  it('refuses a bad command with the field it names', async () => {
    const res = await owner.client.post(commands, rename(''))
    expect(res.status).toBe(400)
    expect(res.json).toMatchObject({ error: 'title_invalid', message: 'Title is invalid.' })
    expect((await owner.client.post(commands, { type: 'card.explode', id: ids.feature })).status).toBe(400)
  })

  it('a create sent again after a lost answer makes one card: the second answer says the id is taken', async () => {
    const feature = {
      type: 'feature.create',
      id: uuid(),
      milestoneId: ids.milestone,
      subWorkflowId: ids.subworkflow,
      title: 'Once',
    }
    expect((await owner.client.post(commands, feature)).status).toBe(200)
    const again = await owner.client.post(commands, feature)
    expect(again).toMatchObject({ status: 409, json: { error: 'id_taken' } })
    const features = (await bundle(owner.client, ids.project)).features.filter(
      (f: { title: string }) => f.title === 'Once',
    )
    expect(features).toHaveLength(1)
  })

  it('undo and redo go the same way; one sent again with its request id is answered, not done twice', async () => {
    const board = await makeBoard(owner.client)
    const path = `/${owner.workspaceName}/projects/${board.project}/commands`
    const renameIt = (title: string) => ({ type: 'card.rename', kind: 'feature', id: board.feature, title })
    expect((await owner.client.post(path, renameIt('One'))).status).toBe(200)
    expect((await owner.client.post(path, renameIt('Two'))).status).toBe(200)
    const undo = { type: 'history.undo', requestId: uuid() }
    const first = await owner.client.post(path, undo)
    expect(first.json).toMatchObject({ ok: true, summary: "Undid: Renamed feature 'One' to 'Two'" })
    const again = await owner.client.post(path, undo)
    expect(again.json).toEqual(first.json)
    const title = async () =>
      (await bundle(owner.client, board.project)).features.find((f: { id: string }) => f.id === board.feature)
        .title
    expect(await title()).toBe('One')
    const redo = await owner.client.post(path, { type: 'history.redo', requestId: uuid() })
    expect(redo.json).toMatchObject({ ok: true, summary: "Redid: Renamed feature 'One' to 'Two'" })
    expect(await title()).toBe('Two')
    expect(await viewer.post(path, { type: 'history.undo', requestId: uuid() })).toMatchObject({
      status: 403,
    })
    expect(await title()).toBe('Two')
    expect((await owner.client.post(path, { type: 'history.undo' })).json.error).toBe('requestId_invalid')
  })

  it('restore and purge from the trash, and watching a card, go the same way', async () => {
    const board = await makeBoard(owner.client)
    const path = `/${owner.workspaceName}/projects/${board.project}/commands`
    expect(
      (await owner.client.post(path, { type: 'card.delete', kind: 'feature', id: board.feature })).status,
    ).toBe(200)
    expect(await viewer.post(path, { type: 'trash.restore', id: board.feature })).toMatchObject({
      status: 403,
    })
    const restored = await owner.client.post(path, { type: 'trash.restore', id: board.feature })
    expect(restored.json).toMatchObject({ ok: true, entity: { id: board.feature } })
    // Sent again after a lost answer: nothing left to restore, which the outbox reads as done.
    expect((await owner.client.post(path, { type: 'trash.restore', id: board.feature })).status).toBe(404)
    expect(
      (await owner.client.post(path, { type: 'card.delete', kind: 'feature', id: board.feature })).status,
    ).toBe(200)
    expect((await owner.client.post(path, { type: 'trash.purge', id: board.feature })).json).toEqual({
      ok: true,
    })
    expect((await owner.client.get(`/v1/projects/${board.project}/trash`)).json.items).toEqual([])

    const watch = (watching: boolean) =>
      owner.client.post(commands, { type: 'feature.watch', featureId: ids.feature, watching })
    const watchPath = `/${owner.workspaceName}/projects/${ids.project}/watch/${ids.feature}`
    expect((await watch(false)).json).toEqual({ ok: true, watching: false })
    expect((await owner.client.get(watchPath)).json).toEqual({ watching: false })
    expect((await watch(true)).json).toEqual({ ok: true, watching: true })
    expect((await owner.client.get(watchPath)).json).toEqual({ watching: true })
  })

  it('the project list page’s trash goes through its own command route', async () => {
    const board = await makeBoard(owner.client)
    const path = `/${owner.workspaceName}/commands`
    expect((await owner.client.delete(`/v1/projects/${board.project}`)).status).toBe(200)
    expect(await viewer.post(path, { type: 'trash.restore', id: board.project })).toMatchObject({
      status: 403,
    })
    expect((await owner.client.post(path, { type: 'trash.restore', id: board.project })).json).toMatchObject({
      ok: true,
      entity: { id: board.project },
    })
    expect((await owner.client.post(path, rename('Not here'))).status).toBe(400)
  })

  it('deleting the project itself answers where to go', async () => {
    const res = await owner.client.post(commands, { type: 'card.delete', kind: 'project', id: ids.project })
    expect(res).toMatchObject({ status: 200, json: { ok: true, redirectTo: `/${owner.workspaceName}` } })
  })
})
