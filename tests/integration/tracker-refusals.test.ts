import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addMember, bundle, makeBoard } from '../support/board'
import { signUp } from '../support/client'
import { DEVELOPER, FakeGitlab } from '../support/fake-gitlab'
import { featureOf } from '../support/github'
import { startServer, type RunningServer } from '../support/server'

/**
 * Who is refused on every §14 tracker route (CONTRACT §14 "Permissions"): another workspace's
 * ids are 404, an inactive plan refuses every write with `plan_inactive`, VIEWERs neither push,
 * sync nor import, EDITORs neither link, relink nor unlink; reads stay open to every member.
 * Hosted mode with a running trial, so a workspace's plan can end.
 */
const PATH = 'acme/shop'
let server: RunningServer
let gitlab: FakeGitlab

beforeAll(async () => {
  gitlab = await new FakeGitlab().start()
  gitlab.addProject(PATH)
  gitlab.addProject('acme/other')
  gitlab.addToken('glpat-good', { projects: { [PATH]: DEVELOPER, 'acme/other': DEVELOPER } })
  server = await startServer({
    APP_MODE: 'hosted',
    TRIAL_DAYS: '14',
    TRACKER_ALLOW_HTTP: 'true',
    TRACKER_ALLOW_PRIVATE: 'true',
    TRACKER_POLL_SECONDS: '1',
  })
})
afterAll(async () => {
  await server?.stop()
  await gitlab?.stop()
})

type Person = Awaited<ReturnType<typeof signUp>>
const linkBody = (project = PATH) => ({ provider: 'gitlab', url: gitlab.url, project, token: 'glpat-good' })

async function linkedBoard() {
  const owner = await signUp(server.url)
  const ids = await makeBoard(owner.client)
  const res = await owner.client.put(`/v1/projects/${ids.project}/tracker`, linkBody())
  expect(res.status, res.text).toBe(200)
  return { owner, ids, cell: { milestoneId: ids.milestone, subWorkflowId: ids.subworkflow } }
}

async function member(owner: Person, level: 'VIEWER' | 'EDITOR' | 'ADMIN') {
  const person = await signUp(server.url)
  addMember(server.dbPath, owner.workspaceId, person.account.id, level)
  person.client.workspaceId = owner.workspaceId
  return person.client
}

/** Calls that reached GitLab for users (the worker's polls, which carry `updated_after`, aside). */
const userCalls = () => gitlab.calls.filter((c) => !c.query.updated_after).length

describe('tracker refusals', () => {
  it("answers another workspace's project, feature and milestone ids with 404 and changes nothing", async () => {
    const { owner, ids, cell } = await linkedBoard()
    const stranger = await signUp(server.url)
    const mine = await makeBoard(stranger.client)
    const before = await bundle(owner.client, ids.project)
    const calls = userCalls()
    const answers = [
      await stranger.client.get(`/v1/projects/${ids.project}/tracker`),
      await stranger.client.put(`/v1/projects/${ids.project}/tracker`, linkBody()),
      await stranger.client.delete(`/v1/projects/${ids.project}/tracker`),
      await stranger.client.get(`/v1/projects/${ids.project}/tracker/log`),
      await stranger.client.post(`/v1/projects/${ids.project}/tracker/sync`),
      await stranger.client.post(`/v1/projects/${ids.project}/tracker/import`, cell),
      // Their own project, but the release and activity of another workspace.
      await stranger.client.post(`/v1/projects/${mine.project}/tracker/import`, cell),
      await stranger.client.post(`/v1/features/${ids.feature}/issue`),
      await stranger.client.post(`/v1/milestones/${ids.milestone}/issues`),
    ]
    for (const res of answers) expect(res.status, res.text).toBe(404)
    expect(userCalls()).toBe(calls)
    const after = await bundle(owner.client, ids.project)
    expect(after.version).toBe(before.version)
    expect(after.project.tracker).toMatchObject({ provider: 'gitlab', project: PATH })
  })

  it('VIEWERs read the link and the log but neither push, sync nor import', async () => {
    const { owner, ids, cell } = await linkedBoard()
    const viewer = await member(owner, 'VIEWER')
    const calls = userCalls()
    for (const res of [
      await viewer.post(`/v1/features/${ids.feature}/issue`),
      await viewer.post(`/v1/milestones/${ids.milestone}/issues`),
      await viewer.post(`/v1/projects/${ids.project}/tracker/sync`),
      await viewer.post(`/v1/projects/${ids.project}/tracker/import`, cell),
      await viewer.put(`/v1/projects/${ids.project}/tracker`, linkBody()),
      await viewer.delete(`/v1/projects/${ids.project}/tracker`),
    ])
      expect([res.status, res.json.error], res.text).toEqual([403, 'level_too_low'])
    expect(userCalls()).toBe(calls)
    expect((await viewer.get(`/v1/projects/${ids.project}/tracker`)).json.tracker).toMatchObject({
      provider: 'gitlab',
    })
    expect((await viewer.get(`/v1/projects/${ids.project}/tracker/log`)).status).toBe(200)
    expect(featureOf(await bundle(owner.client, ids.project), ids.feature).issue).toBeNull()
  })

  it('EDITORs push, sync and import but neither link, relink nor unlink; ADMINs do', async () => {
    const { owner, ids, cell } = await linkedBoard()
    const editor = await member(owner, 'EDITOR')
    const admin = await member(owner, 'ADMIN')
    const calls = userCalls()
    for (const res of [
      await editor.put(`/v1/projects/${ids.project}/tracker`, linkBody()),
      await editor.put(`/v1/projects/${ids.project}/tracker`, linkBody('acme/other')),
      await editor.delete(`/v1/projects/${ids.project}/tracker`),
    ])
      expect([res.status, res.json.error], res.text).toEqual([403, 'level_too_low'])
    expect(userCalls()).toBe(calls)
    expect((await editor.get(`/v1/projects/${ids.project}/tracker`)).json.tracker.project).toBe(PATH)

    expect((await editor.post(`/v1/features/${ids.feature}/issue`)).status).toBe(200)
    expect((await editor.post(`/v1/milestones/${ids.milestone}/issues`)).json).toEqual({
      created: 0,
      failed: [],
    })
    expect((await editor.post(`/v1/projects/${ids.project}/tracker/sync`)).status).toBe(200)
    expect((await editor.post(`/v1/projects/${ids.project}/tracker/import`, cell)).status).toBe(200)
    const relinked = await admin.put(`/v1/projects/${ids.project}/tracker`, linkBody('acme/other'))
    expect(relinked.json.tracker.project).toBe('acme/other')
    expect((await admin.delete(`/v1/projects/${ids.project}/tracker`)).json).toEqual({ tracker: null })
  })

  it('an inactive plan refuses every write with plan_inactive; reads still answer', async () => {
    const { owner, ids, cell } = await linkedBoard()
    const editor = await member(owner, 'EDITOR')
    const db = new Database(server.dbPath)
    db.prepare('update subscriptions set expiration_date = ? where workspace_id = ?').run(
      new Date(Date.now() - 1000).toISOString(),
      owner.workspaceId,
    )
    db.close()
    const before = await bundle(owner.client, ids.project)
    const calls = userCalls()
    const writes = (client: Person['client']) => [
      client.post(`/v1/projects/${ids.project}/tracker/sync`),
      client.post(`/v1/projects/${ids.project}/tracker/import`, cell),
      client.post(`/v1/features/${ids.feature}/issue`),
      client.post(`/v1/milestones/${ids.milestone}/issues`),
    ]
    for (const res of [
      await owner.client.put(`/v1/projects/${ids.project}/tracker`, linkBody('acme/other')),
      await owner.client.delete(`/v1/projects/${ids.project}/tracker`),
      ...(await Promise.all(writes(owner.client))),
      ...(await Promise.all(writes(editor))),
    ])
      expect([res.status, res.json.error], res.text).toEqual([403, 'plan_inactive'])
    expect(userCalls()).toBe(calls)
    const after = await bundle(owner.client, ids.project)
    expect(after.version).toBe(before.version)
    expect(after.project.tracker).toMatchObject({ project: PATH })
    expect(featureOf(after, ids.feature).issue).toBeNull()
    expect((await editor.get(`/v1/projects/${ids.project}/tracker`)).status).toBe(200)
    expect((await editor.get(`/v1/projects/${ids.project}/tracker/log`)).status).toBe(200)
  })
})
