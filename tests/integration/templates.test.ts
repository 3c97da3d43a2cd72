import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BUILT_IN_TEMPLATES } from '~/features/templates/templates'
import { logger } from '~/lib/logger.server'
import { addMember, bundle, makeBoard, uuid } from '../support/board'
import { Client, signUp } from '../support/client'
import { answerChecker } from '../support/openapi'
import { startServer, type RunningServer } from '../support/server'

/** Map templates (CONTRACT §16): the routes, who may call them, and a project made from one. */
let server: RunningServer
let check: ReturnType<typeof answerChecker>

beforeAll(async () => {
  logger.level = 'error'
  server = await startServer()
  check = answerChecker((await fetch(`${server.url}/v1/openapi.json`).then((r) => r.json())) as never)
})
afterAll(async () => {
  await server?.stop()
})

type Answer = Awaited<ReturnType<Client['get']>>
async function call(client: Client, method: string, template: string, path: string, body?: unknown) {
  const answer: Answer = await client.request(method, path, body)
  check.check(method, template, answer)
  return answer
}

/** A member of `owner`'s workspace at `level`, signed in. */
async function memberOf(owner: Awaited<ReturnType<typeof signUp>>, level: 'VIEWER' | 'EDITOR' | 'ADMIN') {
  const other = await signUp(server.url)
  addMember(server.dbPath, owner.workspaceId, other.account.id, level)
  other.client.workspaceId = owner.workspaceId
  return other
}

describe('the template list', () => {
  it('shows the built-in templates to any member, with their counts', async () => {
    const owner = await signUp(server.url)
    const viewer = await memberOf(owner, 'VIEWER')
    const res = await call(viewer.client, 'GET', '/v1/templates', '/v1/templates')
    expect(res.status).toBe(200)
    expect(res.json.templates).toEqual(
      BUILT_IN_TEMPLATES.map((t) => ({
        id: t.id,
        title: t.title,
        description: t.description,
        builtIn: true,
        goals: t.goals,
        features: t.features,
      })),
    )
  })
})

describe('a project from a template', () => {
  it('holds the template’s map under new ids, made in one change', async () => {
    const owner = await signUp(server.url)
    const template = BUILT_IN_TEMPLATES[0]
    const id = uuid()
    const res = await call(owner.client, 'POST', '/v1/projects/{id}', `/v1/projects/${id}`, {
      title: 'Our shop',
      templateId: template.id,
    })
    expect(res.status, res.text).toBe(200)
    expect(res.json).toMatchObject({ id, title: 'Our shop' })
    const map = await bundle(owner.client, id)
    expect(map.version).toBe(1)
    expect(map.workflows).toHaveLength(template.goals)
    expect(map.features).toHaveLength(template.features)
    expect(map.features.map((f: { title: string }) => f.title).sort()).toEqual(
      template.map.features!.map((f) => f.title).sort(),
    )
    const templateIds = new Set(template.map.features!.map((f) => f.id))
    expect(map.features.some((f: { id: string }) => templateIds.has(f.id))).toBe(false)
    const activity = await owner.client.get(`/v1/projects/${id}/activity`)
    expect(activity.json.items.map((a: { summary: string }) => a.summary)).toEqual([
      `Created project 'Our shop' from template '${template.title}'`,
    ])

    // One change, undoable: Undo takes the map off the new project, Redo brings it back.
    const undone = await owner.client.post(`/v1/projects/${id}/undo`)
    expect(undone.json).toEqual({
      version: 2,
      summary: `Undid: Created project 'Our shop' from template '${template.title}'`,
    })
    const empty = await bundle(owner.client, id)
    expect([empty.milestones, empty.workflows, empty.subWorkflows, empty.features, empty.personas]).toEqual([
      [],
      [],
      [],
      [],
      [],
    ])
    expect(empty.project.title).toBe('Our shop')
    expect((await owner.client.post(`/v1/projects/${id}/redo`)).status).toBe(200)
    const back = await bundle(owner.client, id)
    expect(back.features.map((f: { id: string }) => f.id).sort()).toEqual(
      map.features.map((f: { id: string }) => f.id).sort(),
    )
  })

  it('refuses a viewer, an unknown template and another workspace’s template; writes nothing', async () => {
    const owner = await signUp(server.url)
    const stranger = await signUp(server.url)
    const board = await makeBoard(stranger.client)
    const theirs = await stranger.client.post('/v1/templates', { projectId: board.project, title: 'Theirs' })
    expect(theirs.status, theirs.text).toBe(200)
    const viewer = await memberOf(owner, 'VIEWER')
    const create = (client: Client, templateId: string) => {
      const id = uuid()
      return call(client, 'POST', '/v1/projects/{id}', `/v1/projects/${id}`, { title: 'X', templateId })
    }
    const refused = await create(viewer.client, 'online-shop')
    expect([refused.status, refused.json.error]).toEqual([403, 'level_too_low'])
    const unknown = await create(owner.client, 'no-such-template')
    expect([unknown.status, unknown.json.error]).toEqual([404, 'template_not_found'])
    const foreign = await create(owner.client, theirs.json.template.id)
    expect([foreign.status, foreign.json.error]).toEqual([404, 'template_not_found'])
    const bad = await create(owner.client, '../etc')
    expect([bad.status, bad.json.error]).toEqual([400, 'template_id_invalid'])
    expect((await owner.client.get('/v1/projects')).json).toEqual([])
  })
})

describe('a workspace’s own templates', () => {
  it('saves the map as it is now without comments, lists, renames and deletes it', async () => {
    const owner = await signUp(server.url)
    const board = await makeBoard(owner.client)
    const saved = await call(owner.client, 'POST', '/v1/templates', '/v1/templates', {
      projectId: board.project,
      title: 'Our kick-off',
    })
    expect(saved.status, saved.text).toBe(200)
    const template = saved.json.template
    expect(template).toMatchObject({ title: 'Our kick-off', builtIn: false, goals: 1, features: 1 })
    // Later edits to the project do not change the template.
    await owner.client.post(`/v1/features/${board.feature}/rename`, { title: 'Renamed later' })
    const list = await owner.client.get('/v1/templates')
    expect(list.json.templates.at(-1)).toEqual(template)

    const id = uuid()
    const made = await owner.client.post(`/v1/projects/${id}`, { title: 'Second', templateId: template.id })
    expect(made.status, made.text).toBe(200)
    const copy = await bundle(owner.client, id)
    expect(copy.features.map((f: { title: string }) => f.title)).toEqual(['Feature'])
    expect(copy.featureComments).toEqual([])
    expect(copy.personas.map((p: { name: string }) => p.name)).toEqual(['Pat'])

    const path = `/v1/templates/${template.id}`
    const renamed = await call(owner.client, 'PATCH', '/v1/templates/{id}', path, { title: 'Kick-off' })
    expect(renamed.json.template).toEqual({ ...template, title: 'Kick-off' })
    const empty = await call(owner.client, 'PATCH', '/v1/templates/{id}', path, { title: ' ' })
    expect([empty.status, empty.json.error]).toEqual([400, 'title_invalid'])
    expect((await call(owner.client, 'DELETE', '/v1/templates/{id}', path)).status).toBe(200)
    const gone = await call(owner.client, 'DELETE', '/v1/templates/{id}', path)
    expect([gone.status, gone.json.error]).toEqual([404, 'template_not_found'])
    expect((await owner.client.get('/v1/templates')).json.templates).toHaveLength(BUILT_IN_TEMPLATES.length)
  })

  it('built-in templates cannot be renamed or deleted', async () => {
    const owner = await signUp(server.url)
    const rename = await owner.client.request('PATCH', '/v1/templates/online-shop', { title: 'Mine' })
    expect([rename.status, rename.json.error]).toEqual([409, 'template_builtin'])
    const remove = await owner.client.request('DELETE', '/v1/templates/online-shop')
    expect([remove.status, remove.json.error]).toEqual([409, 'template_builtin'])
  })

  it('only owners and admins on an active plan save, rename and delete; another workspace’s are unknown', async () => {
    const owner = await signUp(server.url)
    const board = await makeBoard(owner.client)
    const editor = await memberOf(owner, 'EDITOR')
    const admin = await memberOf(owner, 'ADMIN')
    const body = { projectId: board.project, title: 'By level' }
    const byEditor = await call(editor.client, 'POST', '/v1/templates', '/v1/templates', body)
    expect([byEditor.status, byEditor.json.error]).toEqual([403, 'level_too_low'])
    const byAdmin = await admin.client.post('/v1/templates', body)
    expect(byAdmin.status, byAdmin.text).toBe(200)
    const path = `/v1/templates/${byAdmin.json.template.id}`
    const editorDelete = await editor.client.request('DELETE', path)
    expect([editorDelete.status, editorDelete.json.error]).toEqual([403, 'level_too_low'])

    const stranger = await signUp(server.url)
    const foreignProject = await stranger.client.post('/v1/templates', body)
    expect([foreignProject.status, foreignProject.json.error]).toEqual([404, 'project_not_found'])
    const foreignTemplate = await stranger.client.request('DELETE', path)
    expect([foreignTemplate.status, foreignTemplate.json.error]).toEqual([404, 'template_not_found'])

    const db = new Database(server.dbPath)
    db.prepare('update subscriptions set expiration_date = ? where workspace_id = ?').run(
      '2000-01-01T00:00:00.000Z',
      owner.workspaceId,
    )
    db.close()
    const expired = await owner.client.post('/v1/templates', body)
    expect([expired.status, expired.json.error]).toEqual([403, 'plan_inactive'])
    // Listing still works on an ended plan.
    expect((await owner.client.get('/v1/templates')).json.templates).toHaveLength(
      BUILT_IN_TEMPLATES.length + 1,
    )
  })
})
