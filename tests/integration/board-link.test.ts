import { afterAll, beforeAll, expect, it } from 'vitest'
import { addMember, bundle, makeBoard } from '../support/board'
import { Client, signUp } from '../support/client'
import { startServer, type RunningServer } from '../support/server'

let server: RunningServer
beforeAll(async () => {
  server = await startServer()
})
afterAll(async () => {
  await server?.stop()
})

const NOT_FOUND = { error: 'not_found', message: 'Project not found.' }

it('serves the map read-only without a session while sharing is on, and 404 once it is off', async () => {
  const owner = await signUp(server.url)
  const ids = await makeBoard(owner.client)
  const full = await bundle(owner.client, ids.project)
  const anonymous = new Client(server.url)

  const shared = await anonymous.get(`/v1/link/${full.project.externalLink}`)
  expect(shared.status).toBe(200)
  // The same map without its tracker links and the features' issues (CONTRACT §13, §14).
  const { github: _link, tracker: _tracker, ...project } = full.project
  expect(shared.json).toEqual({
    ...full,
    project,
    features: full.features.map(
      ({ github: _issue, issue: _trackerIssue, ...f }: { github: unknown; issue: unknown }) => f,
    ),
  })

  const v = await signUp(server.url)
  addMember(server.dbPath, owner.workspaceId, v.account.id, 'VIEWER')
  v.client.workspaceId = owner.workspaceId
  expect(await v.client.post('/v1/settings/allow-external-sharing', { value: false })).toMatchObject({
    status: 403,
    json: { error: 'level_too_low' },
  })
  expect((await anonymous.get(`/v1/link/${full.project.externalLink}`)).status).toBe(200)
  // EDITOR is refused too; ADMIN may switch sharing (SPEC: ADMIN and OWNER).
  const e = await signUp(server.url)
  addMember(server.dbPath, owner.workspaceId, e.account.id, 'EDITOR')
  e.client.workspaceId = owner.workspaceId
  expect((await e.client.post('/v1/settings/allow-external-sharing', { value: false })).status).toBe(403)
  expect((await anonymous.get(`/v1/link/${full.project.externalLink}`)).status).toBe(200)
  const a = await signUp(server.url)
  addMember(server.dbPath, owner.workspaceId, a.account.id, 'ADMIN')
  a.client.workspaceId = owner.workspaceId
  expect(await a.client.post('/v1/settings/allow-external-sharing', { value: false })).toMatchObject({
    status: 200,
    json: { allowExternalSharing: false },
  })
  expect((await anonymous.get(`/v1/link/${full.project.externalLink}`)).status).toBe(404)
  expect((await a.client.post('/v1/settings/allow-external-sharing', { value: true })).status).toBe(200)

  expect(await owner.client.post('/v1/settings/allow-external-sharing', { value: 'no' })).toMatchObject({
    status: 400,
    json: { error: 'value_invalid' },
  })
  const off = await owner.client.post('/v1/settings/allow-external-sharing', { value: false })
  expect(off.status).toBe(200)
  expect(off.json).toMatchObject({ id: owner.workspaceId, allowExternalSharing: false })
  expect(await anonymous.get(`/v1/link/${full.project.externalLink}`)).toMatchObject({
    status: 404,
    json: NOT_FOUND,
  })
  // A signed-in member gets no more through the public link than anyone else.
  expect(await owner.client.get(`/v1/link/${full.project.externalLink}`)).toMatchObject({
    status: 404,
    json: NOT_FOUND,
  })

  const on = await owner.client.post('/v1/settings/allow-external-sharing', { value: true })
  expect(on.json.allowExternalSharing).toBe(true)
  expect((await anonymous.get(`/v1/link/${full.project.externalLink}`)).status).toBe(200)
})

it('answers 404 for unknown and odd keys, and refuses writes on the link', async () => {
  const anonymous = new Client(server.url)
  for (const key of ['nope', 'x'.repeat(500), '%00', 'a%20b']) {
    const res = await anonymous.get(`/v1/link/${key}`)
    expect(res.status).toBe(404)
    expect(res.json).toEqual(NOT_FOUND)
  }
  expect((await anonymous.post('/v1/link/nope', {})).status).toBe(405)
})
