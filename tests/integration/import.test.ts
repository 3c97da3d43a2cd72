import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addMember, bundle, uuid } from '../support/board'
import { boardShape, idsOf } from '../support/bundle-shape'
import { Client, signUp } from '../support/client'
import { makeRichBoard } from '../support/rich-board'
import { startServer, type RunningServer } from '../support/server'

let server: RunningServer
let owner: Awaited<ReturnType<typeof signUp>>
let editor: Client
let viewer: Client
let board: Awaited<ReturnType<typeof makeRichBoard>>

beforeAll(async () => {
  server = await startServer()
  owner = await signUp(server.url, { name: 'Olive Owner' })
  const e = await signUp(server.url, { name: 'Eddie Editor' })
  addMember(server.dbPath, owner.workspaceId, e.account.id, 'EDITOR')
  editor = e.client
  editor.workspaceId = owner.workspaceId
  const v = await signUp(server.url, { name: 'Vic Viewer' })
  addMember(server.dbPath, owner.workspaceId, v.account.id, 'VIEWER')
  viewer = v.client
  viewer.workspaceId = owner.workspaceId
  board = await makeRichBoard(owner.client, editor)
})
afterAll(async () => {
  await server?.stop()
})

const importAs = (client: Client, body: string, type: string, query = '') =>
  client.post(`/v1/projects/import${query}`, body, { 'Content-Type': type })

const csvOf = async (client: Client, projectId: string) =>
  (await client.get(`/${owner.workspaceName}/projects/${projectId}/storymap.csv`)).text

describe('export (JSON)', () => {
  it('downloads the whole project in the bundle shapes, named after it, without the change-log version', async () => {
    const res = await owner.client.get(`/v1/projects/${board.project}/export`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^application\/json(;|$)/)
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="Shop _Q3_ _ Ops.storymap.json"; filename*=UTF-8''Shop%20%22Q3%22%20_%20Ops.storymap.json`,
    )
    expect(Object.keys(res.json)).toEqual([
      'format',
      'formatVersion',
      'exportedAt',
      'project',
      'milestones',
      'workflows',
      'subWorkflows',
      'features',
      'featureComments',
      'personas',
      'workflowPersonas',
      'tags',
    ])
    expect(res.json).toMatchObject({ format: 'storymap', formatVersion: 1 })
    expect(Date.now() - Date.parse(res.json.exportedAt)).toBeLessThan(60_000)
    const { version, ...current } = await bundle(owner.client, board.project)
    expect(version).toBeGreaterThan(0)
    const { format, formatVersion, exportedAt, ...rest } = res.json
    void [format, formatVersion, exportedAt]
    // The bundle without the share key, which is access, not content (CONTRACT §8).
    // …and without its tracker links (CONTRACT §13, §14: the features keep their issues).
    const { externalLink, github, tracker, ...project } = current.project
    expect(externalLink).toMatch(/^[A-Za-z0-9_-]{40,}$/)
    expect(github).toBeNull()
    expect(tracker).toBeNull()
    expect(rest).toEqual({ ...current, project })
  })

  it('is a read: a VIEWER may export, and so may anyone with the share link', async () => {
    const mine = await owner.client.get(`/v1/projects/${board.project}/export`)
    const asViewer = await viewer.get(`/v1/projects/${board.project}/export`)
    expect(asViewer.status).toBe(200)
    expect(asViewer.json.features).toEqual(mine.json.features)
    const link = (await bundle(owner.client, board.project)).project.externalLink
    const shared = await new Client(server.url).get(`/v1/link/${link}/export`)
    expect(shared.status).toBe(200)
    expect(shared.headers.get('content-disposition')).toMatch(
      /^attachment; filename="Shop _Q3_ _ Ops\.storymap\.json"/,
    )
    // The share link's file leaves out the features' issues (CONTRACT §13, §14).
    const publicFile = {
      ...mine.json,
      exportedAt: null,
      features: mine.json.features.map(
        ({ github: _issue, issue: _trackerIssue, ...f }: { github: unknown; issue: unknown }) => f,
      ),
    }
    expect({ ...shared.json, exportedAt: null }).toEqual(publicFile)
    expect((await new Client(server.url).get(`/v1/link/not-a-key/export`)).status).toBe(404)
    // The share link page's Export JSON menu item.
    const page = await new Client(server.url).get(`/link/${link}/storymap.json`)
    expect({ ...page.json, exportedAt: null }).toEqual(publicFile)
  })

  it('the board page offers the same file for its Export JSON menu item', async () => {
    const res = await owner.client.get(`/${owner.workspaceName}/projects/${board.project}/storymap.json`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-disposition')).toContain('.storymap.json')
    expect(boardShape(res.json)).toEqual(boardShape(await bundle(owner.client, board.project)))
  })

  it('a project of another workspace is not found; no session is 401', async () => {
    const stranger = await signUp(server.url)
    expect((await stranger.client.get(`/v1/projects/${board.project}/export`)).status).toBe(404)
    const anonymous = new Client(server.url, owner.workspaceId)
    expect((await anonymous.get(`/v1/projects/${board.project}/export`)).status).toBe(401)
  })
})

describe('export → import', () => {
  it('gives back the same board under new ids, as change 1 of a new project', async () => {
    const exported = await owner.client.get(`/v1/projects/${board.project}/export`)
    const res = await importAs(editor, exported.text, 'application/json')
    expect(res.status).toBe(200)
    const project = res.json.project
    expect(project).toMatchObject({
      kind: 'project',
      title: 'Shop "Q3" / Ops',
      createdByName: 'Eddie Editor',
    })
    expect(project.id).not.toBe(board.project)
    expect(project.externalLink).toMatch(/^[A-Za-z0-9_-]{40,}$/)
    expect(project.externalLink).not.toBe((await bundle(owner.client, board.project)).project.externalLink)

    const original = await bundle(owner.client, board.project)
    const copy = await bundle(owner.client, project.id)
    expect(copy.version).toBe(1)
    expect(boardShape(copy)).toEqual(boardShape(original))
    const shared = [...idsOf(copy)].filter((id) => idsOf(original).has(id))
    expect(shared).toEqual([])
    // Cards are the importer's, made now; comments keep their authors' names and dates.
    expect(copy.features.every((f: { createdByName: string }) => f.createdByName === 'Eddie Editor')).toBe(
      true,
    )
    expect(copy.featureComments.map((c: { createdByName: string }) => c.createdByName).sort()).toEqual([
      'Eddie Editor',
      'Olive Owner',
      'Olive Owner',
    ])
  })

  it('takes its title from ?title= when given', async () => {
    const exported = await owner.client.get(`/v1/projects/${board.project}/export`)
    const res = await importAs(owner.client, exported.text, 'application/json', '?title=%20Roadmap%202027%20')
    expect(res.json.project.title).toBe('Roadmap 2027')
  })

  it('keeps comments editable by their authors when imported into the same workspace', async () => {
    const exported = await owner.client.get(`/v1/projects/${board.project}/export`)
    const { project } = (await importAs(owner.client, exported.text, 'application/json')).json
    const copy = await bundle(owner.client, project.id)
    const mine = copy.featureComments.find((c: { post: string }) => c.post === 'Second, from the editor')
    expect((await editor.post(`/v1/featurecomments/${mine.id}/post`, { description: 'Edited' })).status).toBe(
      200,
    )
    expect(
      (await owner.client.post(`/v1/featurecomments/${mine.id}/post`, { description: 'No' })).status,
    ).toBe(403)
  })
})

describe('CSV', () => {
  it('guards formula-like cells on export, in every column', async () => {
    const csv = await csvOf(owner.client, board.project)
    expect(csv).toContain(`"'=SUM(A1:A9)"`)
    expect(csv).toContain(`"'-1 for cash"`)
    expect(csv).toContain(`"'+ by price"`)
    expect(csv).toContain(`"'@everyone\nline two, ""quoted"""`)
    expect(csv).not.toMatch(/(^|,)"[=+\-@\t\r]/m)
  })

  it('CSV → import → CSV gives the same file', async () => {
    const csv = await csvOf(owner.client, board.project)
    const res = await importAs(owner.client, csv, 'text/csv', '?title=From%20CSV')
    expect(res.status).toBe(200)
    expect(res.json.project.title).toBe('From CSV')
    expect(await csvOf(owner.client, res.json.project.id)).toBe(csv)
  })

  it('a spreadsheet file imports: columns by name in any order, extra columns, no quotes, a BOM, LF, a `;` delimiter', async () => {
    const spreadsheet =
      '\uFEFFNotes;Feature_Size;activity_title;goal_title;release_title;feature_title;feature_color;feature_status\n' +
      'ignored;3;Search;Browse;MVP;Find by name;red;\n' +
      ";;Search;Browse;MVP;'=1+2;;closed\n" +
      'x;;Pay;Buy;Later;Card;;\n' +
      ';;;;;;;\n' +
      ';;Filter;Browse;MVP;;;\n'
    const res = await importAs(owner.client, spreadsheet, 'text/csv; charset=utf-8')
    expect(res.status).toBe(200)
    expect(res.json.project.title).toBe('Imported project')
    const b = await bundle(owner.client, res.json.project.id)
    expect(boardShape(b)).toMatchObject({
      milestones: [{ title: 'MVP' }, { title: 'Later' }],
      workflows: [{ title: 'Browse', color: 'WHITE' }, { title: 'Buy' }],
      subWorkflows: [
        { title: 'Search', goal: 'G0' },
        { title: 'Filter', goal: 'G0' },
        { title: 'Pay', goal: 'G1' },
      ],
      features: [
        { title: 'Find by name', estimate: 3, color: 'RED', status: 'OPEN', cell: 'R0/A0' },
        { title: '=1+2', estimate: 0, color: '', status: 'CLOSED', cell: 'R0/A0' },
        { title: 'Card', cell: 'R1/A2' },
      ],
    })
  })
})

describe('duplicate', () => {
  it('copies everything under new ids, titled "Copy of …" unless a title is given', async () => {
    const id = uuid()
    const res = await editor.post(`/v1/projects/${board.project}/duplicate`, { id })
    expect(res.status).toBe(200)
    expect(res.json.project).toMatchObject({ id, title: 'Copy of Shop "Q3" / Ops' })
    const original = await bundle(owner.client, board.project)
    const copy = await bundle(owner.client, id)
    expect(boardShape(copy)).toEqual({
      ...boardShape(original),
      project: { ...boardShape(original).project, title: 'Copy of Shop "Q3" / Ops' },
    })
    expect([...idsOf(copy)].filter((x) => idsOf(original).has(x))).toEqual([])

    const named = await editor.post(`/v1/projects/${board.project}/duplicate`, {
      id: uuid(),
      title: ' Sprint map ',
    })
    expect(named.json.project.title).toBe('Sprint map')
  })

  it('refuses a used id (409), a bad title (400), an unknown or foreign project (404), a VIEWER or non-member (403), no session (401)', async () => {
    expect(
      (await owner.client.post(`/v1/projects/${board.project}/duplicate`, { id: board.project })).status,
    ).toBe(409)
    const bad = await owner.client.post(`/v1/projects/${board.project}/duplicate`, {
      id: uuid(),
      title: 'x'.repeat(201),
    })
    expect(bad).toMatchObject({ status: 400, json: { error: 'title_invalid' } })
    expect((await owner.client.post(`/v1/projects/${uuid()}/duplicate`, { id: uuid() })).status).toBe(404)
    const asViewer = await viewer.post(`/v1/projects/${board.project}/duplicate`, { id: uuid() })
    expect(asViewer).toMatchObject({ status: 403, json: { error: 'level_too_low' } })
    const stranger = await signUp(server.url)
    const path = `/v1/projects/${board.project}/duplicate`
    expect((await stranger.client.post(path, { id: uuid() })).status).toBe(404)
    const foreign = await stranger.client.request(
      'POST',
      path,
      { id: uuid() },
      { Workspace: owner.workspaceId },
    )
    expect(foreign).toMatchObject({ status: 403, json: { error: 'not_a_member' } })
    expect((await new Client(server.url, owner.workspaceId).post(path, { id: uuid() })).status).toBe(401)
  })
})

describe('the project list', () => {
  it('offers Import project and the project menu (Duplicate) only to those who can edit', async () => {
    const page = (await owner.client.get(`/${owner.workspaceName}`)).text
    expect(page).toContain('Import project')
    expect(page).toContain('Project menu: Shop')
    const viewOnly = (await viewer.get(`/${owner.workspaceName}`)).text
    expect(viewOnly).toContain('Shop &quot;Q3&quot; / Ops')
    expect(viewOnly).not.toContain('Import project')
    expect(viewOnly).not.toContain('Project menu:')
  })
})

describe('who may import', () => {
  const file = '"release_title","goal_title","activity_title","feature_title"\r\n"R","G","A","F"\r\n'
  it('a VIEWER may not (403); nor a member of another workspace (403); nor anyone signed out (401)', async () => {
    const count = async () => (await owner.client.get('/v1/projects')).json.length
    const before = await count()
    expect(await importAs(viewer, file, 'text/csv')).toMatchObject({
      status: 403,
      json: { error: 'level_too_low' },
    })
    const stranger = await signUp(server.url)
    const foreign = await stranger.client.post('/v1/projects/import', file, {
      'Content-Type': 'text/csv',
      Workspace: owner.workspaceId,
    })
    expect(foreign).toMatchObject({ status: 403, json: { error: 'not_a_member' } })
    const anonymous = new Client(server.url, owner.workspaceId)
    expect((await importAs(anonymous, file, 'text/csv')).status).toBe(401)
    expect(await count()).toBe(before)
  })
})
