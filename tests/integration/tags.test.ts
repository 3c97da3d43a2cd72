import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addMember, bundle, makeBoard, uuid } from '../support/board'
import { Client, signUp } from '../support/client'
import { LiveStream } from '../support/live'
import { startServer, type RunningServer } from '../support/server'

/** Tags (CONTRACT §12) over real HTTP: the API and its rules, events, activity, undo, export and import. */
let server: RunningServer
let owner: Awaited<ReturnType<typeof signUp>>
let ids: Awaited<ReturnType<typeof makeBoard>>

beforeAll(async () => {
  server = await startServer()
  owner = await signUp(server.url, { name: 'Ana' })
  ids = await makeBoard(owner.client)
})
afterAll(async () => {
  await server?.stop()
})

const createTag = (client: Client, projectId: string, name: string, color = 'RED', id = uuid()) =>
  client.post(`/v1/tags/${id}`, { projectId, name, color })
const lastActivity = async (projectId: string) =>
  (await owner.client.get(`/v1/projects/${projectId}/activity?limit=1`)).json.items[0].summary

describe('the tag list of a project', () => {
  it('creates, renames and recolours tags; the bundle lists them by name and features carry tagIds', async () => {
    const urgent = await createTag(owner.client, ids.project, '  urgent  ')
    expect(urgent.status, urgent.text).toBe(200)
    expect(urgent.json).toMatchObject({ kind: 'tag', projectId: ids.project, name: 'urgent', color: 'RED' })
    expect(await lastActivity(ids.project)).toBe("Added tag 'urgent'")
    await createTag(owner.client, ids.project, 'Backend', 'BLUE')
    const map = await bundle(owner.client, ids.project)
    expect(map.tags.map((t: { name: string }) => t.name)).toEqual(['Backend', 'urgent'])
    expect(map.features[0].tagIds).toEqual([])

    expect((await owner.client.post(`/v1/tags/${urgent.json.id}/rename`, { name: 'Urgent' })).json.name).toBe(
      'Urgent',
    )
    expect(await lastActivity(ids.project)).toBe("Renamed tag 'urgent' to 'Urgent'")
    expect(
      (await owner.client.post(`/v1/tags/${urgent.json.id}/color`, { color: 'ORANGE' })).json.color,
    ).toBe('ORANGE')
    expect(await lastActivity(ids.project)).toBe("Colored tag 'Urgent' orange")
  })

  it('refuses a duplicate name (case ignored), a bad name or colour, and viewers', async () => {
    await createTag(owner.client, ids.project, 'Design')
    const twice = await createTag(owner.client, ids.project, 'DESIGN')
    expect(twice).toMatchObject({ status: 409, json: { error: 'tag_taken' } })
    expect((await createTag(owner.client, ids.project, 'a, b')).json.error).toBe('name_invalid')
    expect((await createTag(owner.client, ids.project, 'x'.repeat(41))).json.error).toBe('name_invalid')
    expect((await createTag(owner.client, ids.project, '')).json.error).toBe('name_invalid')
    expect((await createTag(owner.client, ids.project, 'Ok', '')).json.error).toBe('color_invalid')
    expect((await createTag(owner.client, ids.project, 'Ok', 'PLAID')).json.error).toBe('color_invalid')
    const viewer = await signUp(server.url)
    addMember(server.dbPath, owner.workspaceId, viewer.account.id, 'VIEWER')
    const asViewer = new Client(server.url, owner.workspaceId)
    asViewer.cookies = viewer.client.cookies
    expect((await createTag(asViewer, ids.project, 'Mine')).status).toBe(403)
    const stranger = await signUp(server.url)
    expect((await createTag(stranger.client, ids.project, 'Theirs')).status).toBe(404)
  })
})

describe('tags on features', () => {
  it('replaces a feature’s tags, refuses tags of another project, and the event carries tagIds', async () => {
    const a = (await createTag(owner.client, ids.project, 'Alpha', 'GREEN')).json
    const b = (await createTag(owner.client, ids.project, 'Beta', 'TEAL')).json
    const other = await makeBoard(owner.client)
    const foreign = (await createTag(owner.client, other.project, 'Elsewhere')).json

    const live = await LiveStream.open(server.url, `/v1/projects/${ids.project}/events`, {
      client: owner.client,
    })
    await live.next('ready')
    const set = await owner.client.post(`/v1/features/${ids.feature}/tags`, { tagIds: [b.id, a.id, b.id] })
    expect(set.status, set.text).toBe(200)
    expect(set.json.tagIds).toEqual([b.id, a.id])
    const event = await live.next('change')
    expect(event.data.changes).toEqual([
      expect.objectContaining({
        op: 'upsert',
        kind: 'feature',
        entity: expect.objectContaining({ tagIds: [b.id, a.id] }),
      }),
    ])
    expect(await lastActivity(ids.project)).toBe("Tagged feature 'Feature' 'Beta', 'Alpha'")

    for (const tagIds of [[foreign.id], [uuid()]]) {
      const refused = await owner.client.post(`/v1/features/${ids.feature}/tags`, { tagIds })
      expect(refused).toMatchObject({ status: 400, json: { error: 'tag_invalid' } })
    }
    expect((await owner.client.post(`/v1/features/${ids.feature}/tags`, { tagIds: 'x' })).json.error).toBe(
      'tag_ids_invalid',
    )
    expect((await owner.client.post(`/v1/milestones/${ids.milestone}/tags`, { tagIds: [] })).status).toBe(404)

    // Deleting a tag takes it off its features, in one event; undo puts it back on them.
    const deleted = await owner.client.delete(`/v1/tags/${a.id}`)
    expect(deleted.status).toBe(200)
    const gone = await live.next('change')
    expect(gone.data.changes).toEqual(
      expect.arrayContaining([
        { op: 'delete', kind: 'tag', id: a.id },
        expect.objectContaining({
          op: 'upsert',
          kind: 'feature',
          entity: expect.objectContaining({ id: ids.feature, tagIds: [b.id] }),
        }),
      ]),
    )
    expect(await lastActivity(ids.project)).toBe("Deleted tag 'Alpha' (from 1 feature)")
    const trash = await owner.client.get(`/v1/projects/${ids.project}/trash`)
    expect(trash.json.items.map((i: { kind: string }) => i.kind)).not.toContain('tag')
    expect((await owner.client.post(`/v1/projects/${ids.project}/undo`)).status).toBe(200)
    const map = await bundle(owner.client, ids.project)
    expect(map.tags.map((t: { id: string }) => t.id)).toContain(a.id)
    expect(map.features.find((f: { id: string }) => f.id === ids.feature).tagIds).toEqual([b.id, a.id])
    live.close()
  })
})

describe('export and import keep tags', () => {
  it('JSON: tags and each feature’s tags come back under new ids; a copy keeps them too', async () => {
    const board = await makeBoard(owner.client)
    const t1 = (await createTag(owner.client, board.project, 'Mobile', 'PINK')).json
    await owner.client.post(`/v1/features/${board.feature}/tags`, { tagIds: [t1.id] })
    const file = await owner.client.get(`/v1/projects/${board.project}/export`)
    expect(file.json.tags).toEqual([expect.objectContaining({ name: 'Mobile', color: 'PINK' })])
    const imported = await owner.client.post('/v1/projects/import', file.json)
    expect(imported.status, imported.text).toBe(200)
    const copy = await bundle(owner.client, imported.json.project.id)
    expect(copy.tags).toEqual([expect.objectContaining({ name: 'Mobile', color: 'PINK' })])
    expect(copy.tags[0].id).not.toBe(t1.id)
    expect(copy.features[0].tagIds).toEqual([copy.tags[0].id])

    const bad = await owner.client.post('/v1/projects/import', {
      ...file.json,
      features: [{ ...file.json.features[0], tagIds: ['nope'] }],
    })
    expect(bad).toMatchObject({
      status: 400,
      json: { error: 'import_invalid', message: 'features[0].tagIds[0]: no tag has the id "nope"' },
    })

    const dup = await owner.client.post(`/v1/projects/${board.project}/duplicate`, { id: uuid() })
    const duplicated = await bundle(owner.client, dup.json.project.id)
    expect(duplicated.features[0].tagIds).toEqual([duplicated.tags[0].id])
  })

  it('CSV: a tenth column feature_tags only when the map has tags; import matches names ignoring case and adds new ones in blue', async () => {
    const board = await makeBoard(owner.client)
    const csvOf = async (projectId: string) =>
      (await owner.client.get(`/${owner.workspaceName}/projects/${projectId}/storymap.csv`)).text
    expect((await csvOf(board.project)).split('\r\n')[0]).not.toContain('feature_tags')
    const t = (await createTag(owner.client, board.project, 'Mobile', 'PINK')).json
    await owner.client.post(`/v1/features/${board.feature}/tags`, { tagIds: [t.id] })
    const csv = await csvOf(board.project)
    expect(csv.split('\r\n')[0]).toMatch(/"feature_size","feature_tags"$/)
    expect(csv.split('\r\n')[1]).toMatch(/"Mobile"$/)

    const text = [
      'release_title,goal_title,activity_title,feature_title,feature_tags',
      'MVP,Buy,Pay,Card,"Mobile, web"',
      'MVP,Buy,Pay,Cash,"WEB"',
    ].join('\n')
    const imported = await owner.client.request('POST', '/v1/projects/import', text, {
      'Content-Type': 'text/csv',
    })
    expect(imported.status, imported.text).toBe(200)
    const map = await bundle(owner.client, imported.json.project.id)
    expect(map.tags.map((x: { name: string; color: string }) => [x.name, x.color])).toEqual([
      ['Mobile', 'BLUE'],
      ['web', 'BLUE'],
    ])
    const id = (name: string) => map.tags.find((x: { name: string }) => x.name === name).id
    expect(map.features.map((f: { title: string; tagIds: string[] }) => [f.title, f.tagIds])).toEqual([
      ['Card', [id('Mobile'), id('web')]],
      ['Cash', [id('web')]],
    ])
  })
})
