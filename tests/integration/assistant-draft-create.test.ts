import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { draftToMapFile } from '~/features/assistant/draft-map-file'
import type { DraftMap } from '~/features/assistant'
import { addMember, bundle, uuid } from '../support/board'
import { signUp } from '../support/client'
import { startServer, type RunningServer } from '../support/server'

/**
 * `Create` under a drafted map (CONTRACT §16): `POST /{workspace}/drafts` makes the project as one
 * change its member can undo; a viewer, an inactive plan, another workspace and a map the import
 * would refuse write nothing.
 */
let server: RunningServer
beforeAll(async () => {
  server = await startServer({ APP_MODE: 'hosted', TRIAL_DAYS: '14' })
})
afterAll(async () => {
  await server?.stop()
})

const DRAFT: DraftMap = {
  title: 'Bakery shop',
  description: 'Bread ordered for pickup.',
  releases: [
    { title: 'First bake', description: '' },
    { title: 'Regulars', description: '' },
    { title: 'Delivery', description: '' },
  ],
  goals: [
    {
      title: 'Order bread',
      activities: [
        {
          title: 'Choose loaves',
          cells: [
            { release: 0, features: [{ title: 'Daily loaves list', description: 'What is baked today.' }] },
            { release: 1, features: [{ title: 'Favourites', description: 'Order again in one tap.' }] },
          ],
        },
      ],
    },
  ],
  personas: [],
} as unknown as DraftMap

const create = (who: Awaited<ReturnType<typeof signUp>>, workspaceName: string, body: unknown) =>
  who.client.post(`/${workspaceName}/drafts`, body)

describe('Create under a draft', () => {
  it('makes the project in one change that Undo takes back to an empty board and Redo restores', async () => {
    const owner = await signUp(server.url)
    const id = uuid()
    const map = draftToMapFile(DRAFT)
    const res = await create(owner, owner.workspaceName, { id, title: 'Bakery shop', map })
    expect(res.status, res.text).toBe(200)
    expect(res.json.project).toMatchObject({ id, title: 'Bakery shop' })
    const made = await bundle(owner.client, id)
    expect(made.version).toBe(1)
    expect(made.features.map((f: { title: string }) => f.title).sort()).toEqual([
      'Daily loaves list',
      'Favourites',
    ])
    const undone = await owner.client.post(`/v1/projects/${id}/undo`)
    expect(undone.json.summary).toBe("Undid: Created project 'Bakery shop' from a draft")
    const empty = await bundle(owner.client, id)
    expect([
      empty.workflows.length,
      empty.subWorkflows.length,
      empty.milestones.length,
      empty.features.length,
    ]).toEqual([0, 0, 0, 0])
    expect((await owner.client.post(`/v1/projects/${id}/redo`)).status).toBe(200)
    expect((await bundle(owner.client, id)).features).toHaveLength(2)
  })

  it('refuses a viewer, an inactive plan, another workspace and a map the import refuses; writes nothing', async () => {
    const owner = await signUp(server.url)
    const viewer = await signUp(server.url)
    addMember(server.dbPath, owner.workspaceId, viewer.account.id, 'VIEWER')
    viewer.client.workspaceId = owner.workspaceId
    const stranger = await signUp(server.url)
    const map = draftToMapFile(DRAFT)
    const projects = async () => (await owner.client.get('/v1/projects')).json.length
    const before = await projects()

    const byViewer = await create(viewer, owner.workspaceName, { id: uuid(), title: 'V', map })
    expect([byViewer.status, byViewer.json.error]).toEqual([403, 'level_too_low'])
    const byStranger = await create(stranger, owner.workspaceName, { id: uuid(), title: 'S', map })
    expect(byStranger.status, byStranger.text).toBe(404)
    const broken = { ...map, features: [{ ...map.features![0], milestoneId: uuid() }] }
    const invalid = await create(owner, owner.workspaceName, { id: uuid(), title: 'B', map: broken })
    expect([invalid.status, invalid.json.error]).toEqual([400, 'import_invalid'])
    const untitled = await create(owner, owner.workspaceName, { id: uuid(), title: ' ', map })
    expect(untitled.status).toBe(400)

    const db = new Database(server.dbPath)
    db.prepare('update subscriptions set expiration_date = ? where workspace_id = ?').run(
      new Date(Date.now() - 1000).toISOString(),
      owner.workspaceId,
    )
    db.close()
    const lapsed = await create(owner, owner.workspaceName, { id: uuid(), title: 'L', map })
    expect([lapsed.status, lapsed.json.error]).toEqual([403, 'plan_inactive'])
    expect(await projects()).toBe(before)
  })
})
