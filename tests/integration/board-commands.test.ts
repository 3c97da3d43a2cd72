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

  it('refuses, in the /v1 error shape, whoever may not write, and changes nothing', async () => {
    const anonymous = new Client(server.url)
    expect(await anonymous.post(commands, rename('Anon'))).toMatchObject({ status: 401, json: { error: 'unauthorized' } })
    expect(await viewer.post(commands, rename('Viewer'))).toMatchObject({ status: 403, json: { error: 'level_too_low' } })
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
    const feature = { type: 'feature.create', id: uuid(), milestoneId: ids.milestone, subWorkflowId: ids.subworkflow, title: 'Once' }
    expect((await owner.client.post(commands, feature)).status).toBe(200)
    const again = await owner.client.post(commands, feature)
    expect(again).toMatchObject({ status: 409, json: { error: 'id_taken' } })
    const features = (await bundle(owner.client, ids.project)).features.filter((f: { title: string }) => f.title === 'Once')
    expect(features).toHaveLength(1)
  })

  it('deleting the project itself answers where to go', async () => {
    const res = await owner.client.post(commands, { type: 'card.delete', kind: 'project', id: ids.project })
    expect(res).toMatchObject({ status: 200, json: { ok: true, redirectTo: `/${owner.workspaceName}` } })
  })
})
