import Database from 'better-sqlite3'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { bundle, makeBoard, send, writeCalls } from '../support/board'
import { signUp } from '../support/client'
import { startServer, type RunningServer } from '../support/server'

let server: RunningServer
beforeAll(async () => {
  server = await startServer({ APP_MODE: 'hosted', TRIAL_DAYS: '0' })
})
afterAll(async () => {
  await server?.stop()
})

function setExpiration(workspaceId: string, date: Date) {
  const db = new Database(server.dbPath)
  db.pragma('busy_timeout = 5000')
  db.prepare('update subscriptions set expiration_date = ? where workspace_id = ?').run(
    date.toISOString(),
    workspaceId,
  )
  db.close()
}

it('a workspace whose trial has ended is view only: every write 403 plan_inactive, reads 200', async () => {
  const owner = await signUp(server.url)
  expect(
    (await owner.client.post(`/v1/projects/${crypto.randomUUID()}`, { title: 'Too late' })).json,
  ).toMatchObject({ error: 'plan_inactive' })

  // Build a map while the trial is (briefly) running, then let it end.
  setExpiration(owner.workspaceId, new Date(Date.now() + 86_400_000))
  const ids = await makeBoard(owner.client)
  const link = (await bundle(owner.client, ids.project)).project.externalLink
  const shared = await owner.client.get(`/v1/link/${link}`, { Cookie: '' })
  expect(shared.status).toBe(200)
  setExpiration(owner.workspaceId, new Date(Date.now() - 1000))

  const before = await bundle(owner.client, ids.project)
  for (const call of writeCalls(ids)) {
    const res = await send(owner.client, call)
    expect([call.name, res.status, res.json?.error]).toEqual([call.name, 403, 'plan_inactive'])
  }
  expect(await bundle(owner.client, ids.project)).toEqual(before)
  expect((await owner.client.get('/v1/projects')).status).toBe(200)
  // Import and duplicate are writes too; export is a read and still works.
  const projects = (await owner.client.get('/v1/projects')).json.length
  const csv = 'release_title,goal_title,activity_title,feature_title\nR,G,A,F\n'
  const imported = await owner.client.post('/v1/projects/import', csv, { 'Content-Type': 'text/csv' })
  expect(imported).toMatchObject({ status: 403, json: { error: 'plan_inactive' } })
  const copy = await owner.client.post(`/v1/projects/${ids.project}/duplicate`, { id: crypto.randomUUID() })
  expect(copy).toMatchObject({ status: 403, json: { error: 'plan_inactive' } })
  expect((await owner.client.get('/v1/projects')).json).toHaveLength(projects)
  expect((await owner.client.get(`/v1/projects/${ids.project}/export`)).status).toBe(200)

  // The public link closes with the plan.
  const closed = await owner.client.get(`/v1/link/${link}`)
  expect(closed).toMatchObject({ status: 404, json: { error: 'not_found', message: 'Project not found.' } })
})
