import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bundle, makeBoard, uuid } from '../support/board'
import { signUp, type Client } from '../support/client'
import { startServer, type RunningServer } from '../support/server'

let server: RunningServer
let owner: Awaited<ReturnType<typeof signUp>>
let c: Client

beforeAll(async () => {
  server = await startServer()
  owner = await signUp(server.url, { name: 'Olive Owner' })
  c = owner.client
})
afterAll(async () => {
  await server?.stop()
})

const CARD_FIELDS = [
  'id',
  'workspaceId',
  'rank',
  'title',
  'description',
  'createdAt',
  'createdBy',
  'createdByName',
  'lastModified',
  'lastModifiedByName',
  'color',
  'status',
  'annotations',
]

describe('projects', () => {
  it('creates, lists, renames, describes and deletes a project', async () => {
    const id = uuid()
    const created = await c.post(`/v1/projects/${id}`, { title: '  Roadmap  ' })
    expect(created.status).toBe(200)
    expect(created.json).toMatchObject({
      kind: 'project',
      id,
      title: 'Roadmap',
      description: '',
      workspaceId: owner.workspaceId,
      createdByName: 'Olive Owner',
    })
    expect(created.json.externalLink).toMatch(/^[A-Za-z0-9_-]{40,}$/)

    const list = await c.get('/v1/projects')
    expect(list.status).toBe(200)
    expect(list.json.map((p: { id: string }) => p.id)).toContain(id)

    expect((await c.post(`/v1/projects/${id}/rename`, { title: 'Plan' })).json).toMatchObject({
      title: 'Plan',
    })
    expect((await c.post(`/v1/projects/${id}/description`, { description: '# Hi' })).json).toMatchObject({
      description: '# Hi',
    })
    const b = await bundle(c, id)
    expect(b.project).toMatchObject({ title: 'Plan', description: '# Hi', lastModifiedByName: 'Olive Owner' })
    expect(b).toEqual({
      version: 3, // create, rename, description (CONTRACT §6)
      project: b.project,
      milestones: [],
      workflows: [],
      subWorkflows: [],
      features: [],
      featureComments: [],
      personas: [],
      workflowPersonas: [],
      tags: [],
    })

    expect(await c.delete(`/v1/projects/${id}`)).toMatchObject({ status: 200, json: {} })
    expect((await c.get(`/v1/projects/${id}`)).status).toBe(404)
    expect((await c.get(`/v1/projects/${id}`)).json.error).toBe('project_not_found')
  })

  it('refuses bad titles (title_invalid), a used id (409 id_taken) and unknown ids (404)', async () => {
    for (const title of ['', '   ', 'x'.repeat(201), 42, null]) {
      const res = await c.post(`/v1/projects/${uuid()}`, { title })
      expect(res.status).toBe(400)
      expect(res.json.error).toBe('title_invalid')
    }
    const id = uuid()
    expect((await c.post(`/v1/projects/${id}`, { title: 'A' })).status).toBe(200)
    expect(await c.post(`/v1/projects/${id}`, { title: 'B' })).toMatchObject({
      status: 409,
      json: { error: 'id_taken' },
    })
    expect(
      (await c.post(`/v1/projects/${id}/description`, { description: 'x'.repeat(10001) })).json.error,
    ).toBe('description_invalid')
    expect((await c.post(`/v1/projects/${uuid()}/rename`, { title: 'B' })).status).toBe(404)
    expect((await c.post(`/v1/projects/${id}/explode`, {})).status).toBe(404)
    expect((await bundle(c, id)).project.title).toBe('A')
  })

  it('deleting a project takes everything in it', async () => {
    const ids = await makeBoard(c)
    expect((await c.delete(`/v1/projects/${ids.project}`)).status).toBe(200)
    const db = new Database(server.dbPath, { readonly: true })
    for (const table of [
      'milestones',
      'workflows',
      'subworkflows',
      'features',
      'feature_comments',
      'personas',
      'workflow_personas',
    ]) {
      expect(db.prepare(`select count(*) as n from ${table} where project_id = ?`).get(ids.project)).toEqual({
        n: 0,
      })
    }
    db.close()
  })
})

describe('cards', () => {
  it('creates every kind with every field, goals WHITE and others uncoloured, features estimate 0', async () => {
    const ids = await makeBoard(c)
    const b = await bundle(c, ids.project)
    for (const list of [b.milestones, b.workflows, b.subWorkflows, b.features]) {
      expect(list).toHaveLength(1)
      for (const f of CARD_FIELDS) expect(list[0]).toHaveProperty(f)
      expect(list[0]).toMatchObject({
        status: 'OPEN',
        annotations: '',
        createdBy: expect.any(String),
        createdByName: 'Olive Owner',
      })
    }
    expect(b.workflows[0].color).toBe('WHITE')
    expect(b.milestones[0].color).toBe('')
    expect(b.subWorkflows[0]).toMatchObject({ color: '', workflowId: ids.workflow, projectId: ids.project })
    expect(b.features[0]).toMatchObject({
      estimate: 0,
      projectId: ids.project,
      milestoneId: ids.milestone,
      subWorkflowId: ids.subworkflow,
    })
    expect(b.milestones[0].projectId).toBe(ids.project)
  })

  it.each(['milestones', 'workflows', 'subworkflows', 'features'])(
    'runs the shared operations on %s',
    async (kind) => {
      const ids = await makeBoard(c)
      const id = {
        milestones: ids.milestone,
        workflows: ids.workflow,
        subworkflows: ids.subworkflow,
        features: ids.feature,
      }[kind]!
      const listOf = (b: any) =>
        ({
          milestones: b.milestones,
          workflows: b.workflows,
          subworkflows: b.subWorkflows,
          features: b.features,
        })[kind]
      expect((await c.post(`/v1/${kind}/${id}/rename`, { title: ' Renamed ' })).json).toMatchObject({
        id,
        title: 'Renamed',
      })
      expect((await c.post(`/v1/${kind}/${id}/description`, { description: 'Text' })).json).toMatchObject({
        description: 'Text',
      })
      expect((await c.post(`/v1/${kind}/${id}/color`, { color: 'TEAL' })).json).toMatchObject({
        color: 'TEAL',
      })
      expect((await c.post(`/v1/${kind}/${id}/color`, { color: '' })).json).toMatchObject({ color: '' })
      expect(
        (await c.post(`/v1/${kind}/${id}/annotations`, { annotations: 'IDEA,RISKY,IDEA' })).json,
      ).toMatchObject({ annotations: 'RISKY,IDEA' })
      expect((await c.post(`/v1/${kind}/${id}/close`)).json).toMatchObject({ status: 'CLOSED' })

      // A closed card refuses title, description, colour, annotation (and size) edits.
      for (const [op, body] of [
        ['rename', { title: 'No' }],
        ['description', { description: 'No' }],
        ['color', { color: 'RED' }],
        ['annotations', { annotations: 'IDEA' }],
      ] as const) {
        expect(await c.post(`/v1/${kind}/${id}/${op}`, body)).toMatchObject({
          status: 400,
          json: { error: 'card_closed' },
        })
      }
      if (kind === 'features')
        expect((await c.post(`/v1/features/${id}/estimate`, { estimate: 3 })).json.error).toBe('card_closed')

      const closed = listOf(await bundle(c, ids.project))[0]
      expect(closed).toMatchObject({
        title: 'Renamed',
        description: 'Text',
        color: '',
        annotations: 'RISKY,IDEA',
        status: 'CLOSED',
      })
      expect((await c.post(`/v1/${kind}/${id}/open`)).json).toMatchObject({ status: 'OPEN' })

      // Bad input.
      expect((await c.post(`/v1/${kind}/${id}/color`, { color: 'MAUVE' })).json.error).toBe('color_invalid')
      expect((await c.post(`/v1/${kind}/${id}/annotations`, { annotations: 'RISKY,NOPE' })).json.error).toBe(
        'annotations_invalid',
      )
      expect((await c.post(`/v1/${kind}/${id}/rename`, { title: '' })).json.error).toBe('title_invalid')
      expect((await c.post(`/v1/${kind}/${id}/rename`, { title: 'x'.repeat(201) })).json.error).toBe(
        'title_invalid',
      )
      expect(
        (await c.post(`/v1/${kind}/${id}/description`, { description: 'x'.repeat(10001) })).json.error,
      ).toBe('description_invalid')
      expect((await c.post(`/v1/${kind}/${uuid()}/rename`, { title: 'A' })).status).toBe(404)
      expect((await c.post(`/v1/${kind}/${id}/explode`)).status).toBe(404)
      const after = listOf(await bundle(c, ids.project))[0]
      expect(after).toMatchObject({ title: 'Renamed', status: 'OPEN', lastModifiedByName: 'Olive Owner' })

      expect(await c.delete(`/v1/${kind}/${id}`)).toMatchObject({ status: 200, json: {} })
      expect(listOf(await bundle(c, ids.project))).toHaveLength(0)
    },
  )

  it('sets a feature estimate within 0–999', async () => {
    const ids = await makeBoard(c)
    expect((await c.post(`/v1/features/${ids.feature}/estimate`, { estimate: 999 })).json.estimate).toBe(999)
    for (const estimate of [-1, 1000, 2.5, '5', null]) {
      expect((await c.post(`/v1/features/${ids.feature}/estimate`, { estimate })).json.error).toBe(
        'estimate_invalid',
      )
    }
    expect((await c.post(`/v1/milestones/${ids.milestone}/estimate`, { estimate: 1 })).status).toBe(404)
    expect((await bundle(c, ids.project)).features[0].estimate).toBe(999)
  })

  it('refuses a used id, unknown parents and parents of another project', async () => {
    const a = await makeBoard(c)
    const b = await makeBoard(c)
    expect(await c.post(`/v1/milestones/${a.milestone}`, { projectId: a.project, title: 'R' })).toMatchObject(
      { status: 409, json: { error: 'id_taken' } },
    )
    expect((await c.post(`/v1/milestones/${uuid()}`, { projectId: uuid(), title: 'R' })).json.error).toBe(
      'project_not_found',
    )
    expect((await c.post(`/v1/subworkflows/${uuid()}`, { workflowId: uuid(), title: 'A' })).json.error).toBe(
      'workflow_not_found',
    )
    const mixed = await c.post(`/v1/features/${uuid()}`, {
      milestoneId: a.milestone,
      subWorkflowId: b.subworkflow,
      title: 'F',
    })
    expect(mixed).toMatchObject({ status: 400, json: { error: 'project_mismatch' } })
    const move = await c.post(`/v1/features/${a.feature}/move`, {
      toSubWorkflowId: b.subworkflow,
      toMilestoneId: b.milestone,
      index: 0,
    })
    expect(move).toMatchObject({ status: 400, json: { error: 'project_mismatch' } })
    const swMove = await c.post(`/v1/subworkflows/${a.subworkflow}/move`, {
      toWorkflowId: b.workflow,
      index: 0,
    })
    expect(swMove).toMatchObject({ status: 400, json: { error: 'project_mismatch' } })
    const link = await c.post(`/v1/workflowpersonas/${uuid()}`, {
      workflowId: b.workflow,
      personaId: a.persona,
    })
    expect(link).toMatchObject({ status: 400, json: { error: 'project_mismatch' } })
    expect(
      (await c.post(`/v1/features/${uuid()}`, { milestoneId: a.milestone, title: 'F' })).json.error,
    ).toBe('sub_workflow_id_invalid')
    expect((await c.post(`/v1/milestones/${uuid()}/move`, { index: 0 })).status).toBe(404)
    const bA = await bundle(c, a.project)
    expect(bA.features.map((f: any) => f.id)).toEqual([a.feature])
    expect(bA.subWorkflows[0].workflowId).toBe(a.workflow)
  })

  it('moves features between cells and activities between goals, returning the entity', async () => {
    const ids = await makeBoard(c)
    const goal2 = uuid()
    const act2 = uuid()
    const rel2 = uuid()
    await c.post(`/v1/workflows/${goal2}`, { projectId: ids.project, title: 'Goal 2' })
    await c.post(`/v1/subworkflows/${act2}`, { workflowId: goal2, title: 'Act 2' })
    await c.post(`/v1/milestones/${rel2}`, { projectId: ids.project, title: 'Rel 2' })
    const moved = await c.post(`/v1/features/${ids.feature}/move`, {
      toSubWorkflowId: act2,
      toMilestoneId: rel2,
      index: 0,
    })
    expect(moved.json).toMatchObject({ id: ids.feature, subWorkflowId: act2, milestoneId: rel2 })
    const sw = await c.post(`/v1/subworkflows/${ids.subworkflow}/move`, { toWorkflowId: goal2, index: 0 })
    expect(sw.json).toMatchObject({ id: ids.subworkflow, workflowId: goal2 })
    expect((await c.post(`/v1/workflows/${goal2}/move`, { index: 0 })).json).toMatchObject({ id: goal2 })
    expect((await c.post(`/v1/milestones/${rel2}/move`, { index: 0 })).json).toMatchObject({ id: rel2 })
    const b = await bundle(c, ids.project)
    expect(b.workflows.map((w: any) => w.id)).toEqual([goal2, ids.workflow])
    expect(b.milestones.map((m: any) => m.id)).toEqual([rel2, ids.milestone])
    expect(b.subWorkflows.filter((s: any) => s.workflowId === goal2).map((s: any) => s.id)).toEqual([
      ids.subworkflow,
      act2,
    ])
    expect(b.features[0]).toMatchObject({ subWorkflowId: act2, milestoneId: rel2 })
    expect(
      (
        await c.post(`/v1/features/${ids.feature}/move`, {
          toSubWorkflowId: act2,
          toMilestoneId: rel2,
          index: -1,
        })
      ).json.error,
    ).toBe('index_invalid')
  })

  it('cascades: a workflow takes its activities and their features, a milestone its features', async () => {
    const ids = await makeBoard(c)
    expect((await c.delete(`/v1/milestones/${ids.milestone}`)).status).toBe(200)
    let b = await bundle(c, ids.project)
    expect(b.features).toHaveLength(0)
    expect(b.featureComments).toHaveLength(0)
    const ids2 = await makeBoard(c)
    expect((await c.delete(`/v1/workflows/${ids2.workflow}`)).status).toBe(200)
    b = await bundle(c, ids2.project)
    expect(b).toMatchObject({
      workflows: [],
      subWorkflows: [],
      features: [],
      featureComments: [],
      workflowPersonas: [],
    })
    expect(b.personas).toHaveLength(1)
    expect(b.milestones).toHaveLength(1)
  })

  it('answers 404 JSON for an unknown kind and 405 for a wrong method', async () => {
    expect(await c.post(`/v1/gizmos/${uuid()}`, { title: 'x' })).toMatchObject({
      status: 404,
      json: { error: 'not_found' },
    })
    expect(await c.post(`/v1/gizmos/${uuid()}/rename`, { title: 'x' })).toMatchObject({
      status: 404,
      json: { error: 'not_found' },
    })
    expect((await c.get(`/v1/features/${uuid()}`)).status).toBe(405)
    expect((await c.delete(`/v1/gizmos/${uuid()}/rename`)).status).toBe(404)
    expect((await c.get(`/v1/features/${uuid()}/rename`)).status).toBe(405)
    expect((await c.get(`/v1/features/${uuid()}/explode`)).status).toBe(404)
    // Names every object has are not kinds either.
    for (const name of ['constructor', 'toString', 'hasOwnProperty']) {
      expect(await c.post(`/v1/${name}/${uuid()}/rename`, { title: 'x' })).toMatchObject({
        status: 404,
        json: { error: 'not_found' },
      })
      expect(await c.post(`/v1/${name}/${uuid()}`, { title: 'x' })).toMatchObject({
        status: 404,
        json: { error: 'not_found' },
      })
    }
  })
})

describe('comments', () => {
  it('posts, edits and deletes a comment; lists newest first', async () => {
    const ids = await makeBoard(c)
    const second = uuid()
    const res = await c.post(`/v1/featurecomments/${second}`, { featureId: ids.feature, post: 'Second' })
    expect(res.json).toMatchObject({
      kind: 'featureComment',
      id: second,
      featureId: ids.feature,
      projectId: ids.project,
      post: 'Second',
      createdByName: 'Olive Owner',
    })
    expect(res.json.memberId).toEqual(expect.any(String))
    expect(
      (await c.post(`/v1/featurecomments/${second}/post`, { description: 'Edited' })).json,
    ).toMatchObject({ post: 'Edited' })
    let b = await bundle(c, ids.project)
    expect(b.featureComments.map((x: any) => x.post)).toEqual(['Edited', 'Hello'])
    expect(await c.delete(`/v1/featurecomments/${second}`)).toMatchObject({ status: 200, json: {} })
    b = await bundle(c, ids.project)
    expect(b.featureComments.map((x: any) => x.id)).toEqual([ids.comment])
  })

  it('validates comments and refuses unknown features', async () => {
    const ids = await makeBoard(c)
    for (const post of ['', 'x'.repeat(10001), 5]) {
      expect(
        (await c.post(`/v1/featurecomments/${uuid()}`, { featureId: ids.feature, post })).json.error,
      ).toBe('post_invalid')
    }
    expect((await c.post(`/v1/featurecomments/${ids.comment}/post`, { description: '' })).json.error).toBe(
      'description_invalid',
    )
    expect((await c.post(`/v1/featurecomments/${uuid()}`, { featureId: uuid(), post: 'x' })).status).toBe(404)
    expect(
      (await c.post(`/v1/featurecomments/${ids.comment}`, { featureId: ids.feature, post: 'x' })).status,
    ).toBe(409)
    expect((await bundle(c, ids.project)).featureComments).toHaveLength(1)
  })
})

describe('personas', () => {
  it('creates (with its goal link), updates, links, unlinks and deletes personas, sorted by name', async () => {
    const ids = await makeBoard(c)
    const ann = uuid()
    const res = await c.post(`/v1/personas/${ann}`, { projectId: ids.project, name: 'Ann' })
    expect(res.json).toMatchObject({
      kind: 'persona',
      id: ann,
      avatar: 'avatar00',
      name: 'Ann',
      role: '',
      description: '',
      projectId: ids.project,
    })
    const link = uuid()
    expect(
      (await c.post(`/v1/workflowpersonas/${link}`, { workflowId: ids.workflow, personaId: ann })).json,
    ).toMatchObject({
      kind: 'workflowPersona',
      id: link,
      workflowId: ids.workflow,
      personaId: ann,
      projectId: ids.project,
    })
    expect(
      (await c.post(`/v1/workflowpersonas/${uuid()}`, { workflowId: ids.workflow, personaId: ann })).status,
    ).toBe(409)
    const put = await c.put(`/v1/personas/${ann}`, {
      avatar: 'avatar08',
      name: 'Zed',
      role: 'Admin',
      description: 'Likes maps',
    })
    expect(put.json).toMatchObject({
      avatar: 'avatar08',
      name: 'Zed',
      role: 'Admin',
      description: 'Likes maps',
    })
    let b = await bundle(c, ids.project)
    expect(b.personas.map((p: any) => p.name)).toEqual(['Pat', 'Zed'])
    expect(b.workflowPersonas.map((w: any) => w.id).sort()).toEqual([ids.workflowPersona, link].sort())
    expect((await c.delete(`/v1/workflowpersonas/${link}`)).status).toBe(200)
    expect((await c.delete(`/v1/personas/${ids.persona}`)).status).toBe(200)
    b = await bundle(c, ids.project)
    expect(b.personas.map((p: any) => p.id)).toEqual([ann])
    expect(b.workflowPersonas).toEqual([])
  })

  it('takes an empty workflowId as no goal, as the original Featmap client sends from the Personas panel', async () => {
    const ids = await makeBoard(c)
    const before = await bundle(c, ids.project)
    // The exact body of Featmap's "create persona" in its Personas panel (CONTRACT §3).
    const id = uuid()
    const body = {
      projectId: ids.project,
      avatar: 'avatar03',
      name: 'Panel Persona',
      role: 'Buyer',
      description: 'Made in the panel',
      workflowId: '',
      workflowPersonaId: uuid(),
    }
    const res = await c.post(`/v1/personas/${id}`, body)
    expect(res.status).toBe(200)
    expect(res.json).toMatchObject({
      kind: 'persona',
      id,
      name: 'Panel Persona',
      avatar: 'avatar03',
      role: 'Buyer',
    })
    // The same with the link id empty too, and with both null: no goal, no link.
    const second = uuid()
    expect(
      (await c.post(`/v1/personas/${second}`, { ...body, name: 'Second', workflowPersonaId: '' })).status,
    ).toBe(200)
    const third = uuid()
    expect(
      (
        await c.post(`/v1/personas/${third}`, {
          ...body,
          name: 'Third',
          workflowId: null,
          workflowPersonaId: null,
        })
      ).status,
    ).toBe(200)
    const after = await bundle(c, ids.project)
    expect(after.personas.map((p: any) => p.id).sort()).toEqual(
      [...before.personas.map((p: any) => p.id), id, second, third].sort(),
    )
    expect(after.workflowPersonas).toEqual(before.workflowPersonas)
  })

  it('validates personas and creates nothing when the goal link fails', async () => {
    const ids = await makeBoard(c)
    const cases: [Record<string, unknown>, string][] = [
      [{ name: '' }, 'name_invalid'],
      [{ name: 'x'.repeat(201) }, 'name_invalid'],
      [{ name: 'A', avatar: 'avatar09' }, 'avatar_invalid'],
      [{ name: 'A', role: 'x'.repeat(201) }, 'role_invalid'],
      [{ name: 'A', description: 'x'.repeat(10001) }, 'description_invalid'],
      [{ name: 'A', workflowId: ids.workflow }, 'workflow_persona_id_invalid'],
    ]
    for (const [body, code] of cases) {
      expect((await c.post(`/v1/personas/${uuid()}`, { projectId: ids.project, ...body })).json.error).toBe(
        code,
      )
    }
    const failing = await c.post(`/v1/personas/${uuid()}`, {
      projectId: ids.project,
      name: 'Ghost',
      workflowId: uuid(),
      workflowPersonaId: uuid(),
    })
    expect(failing.status).toBe(404)
    const taken = await c.post(`/v1/personas/${uuid()}`, {
      projectId: ids.project,
      name: 'Ghost',
      workflowId: ids.workflow,
      workflowPersonaId: ids.workflowPersona,
    })
    expect(taken.status).toBe(409)
    expect((await c.put(`/v1/personas/${ids.persona}`, { name: '' })).json.error).toBe('name_invalid')
    expect((await c.put(`/v1/personas/${uuid()}`, { name: 'A' })).status).toBe(404)
    const b = await bundle(c, ids.project)
    expect(b.personas.map((p: any) => p.name)).toEqual(['Pat'])
  })
})
