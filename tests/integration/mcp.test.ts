import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addMember, bundle, makeBoard } from '../support/board'
import { signUp, type Client } from '../support/client'
import { LiveStream } from '../support/live'
import { startServer, type RunningServer } from '../support/server'

/** POST /mcp (CONTRACT §10) with the SDK's own client against the real server. */
let server: RunningServer
let owner: Awaited<ReturnType<typeof signUp>>
let ids: Awaited<ReturnType<typeof makeBoard>>
let writer: McpClient
let reader: McpClient

async function token(client: Client, workspaceId: string, scope: 'read' | 'write', name: string) {
  const res = await client.post('/v1/account/tokens', { name, workspaceId, scope })
  expect(res.status, res.text).toBe(201)
  return res.json.secret as string
}

async function connect(secret: string) {
  const client = new McpClient({ name: 'storymap-test', version: '1.0.0' })
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${secret}` } },
    }),
  )
  return client
}

type ToolAnswer = { content: { type: string; text: string }[]; structuredContent?: any; isError?: boolean }
const call = async (client: McpClient, name: string, args: Record<string, unknown> = {}) =>
  (await client.callTool({ name, arguments: args })) as ToolAnswer
const textOf = (answer: ToolAnswer) => answer.content.map((c) => c.text).join('\n')

beforeAll(async () => {
  server = await startServer()
  owner = await signUp(server.url, { name: 'Ana' })
  ids = await makeBoard(owner.client)
  writer = await connect(await token(owner.client, owner.workspaceId, 'write', 'Claude'))
  reader = await connect(await token(owner.client, owner.workspaceId, 'read', 'Reader'))
})
afterAll(async () => {
  await writer?.close()
  await reader?.close()
  await server?.stop()
})

describe('the endpoint', () => {
  it('wants a Bearer token (no cookie counts) and takes POST only', async () => {
    const init = {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: '{}',
    }
    const anonymous = await fetch(`${server.url}/mcp`, init)
    expect(anonymous.status).toBe(401)
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Bearer/)
    expect((await anonymous.json()).error).toBe('invalid_token')
    const withCookie = await fetch(`${server.url}/mcp`, {
      ...init,
      headers: { ...init.headers, Cookie: owner.client.cookieHeader() },
    })
    expect(withCookie.status).toBe(401)
    const revoked = await fetch(`${server.url}/mcp`, {
      ...init,
      headers: { ...init.headers, Authorization: 'Bearer smp_notarealtokennotarealtokennotareal' },
    })
    expect(revoked.status).toBe(401)
    expect((await fetch(`${server.url}/mcp`)).status).toBe(405)
  })

  it('lists the tools of the contract, each with a description and a JSON-schema input', async () => {
    const { tools } = await writer.listTools()
    expect(tools.map((t) => t.name).sort()).toEqual(
      [
        'add_activity',
        'add_comment',
        'add_feature',
        'add_goal',
        'add_release',
        'delete_card',
        'get_story_map',
        'list_projects',
        'move_card',
        'search_cards',
        'undo',
        'update_card',
      ].sort(),
    )
    const addFeature = tools.find((t) => t.name === 'add_feature')!
    expect(addFeature.description).toMatch(/cell of an activity and a release/)
    expect(addFeature.inputSchema.required).toEqual(
      expect.arrayContaining(['activityId', 'releaseId', 'title']),
    )
  })
})

describe('the tools', () => {
  it('reads: list_projects, get_story_map (outline and bundle) and search_cards', async () => {
    const list = await call(reader, 'list_projects')
    expect(list.isError).toBeFalsy()
    expect(list.structuredContent.projects).toEqual([
      { id: ids.project, title: 'Map', goals: 1, activities: 1, releases: 1, features: 1 },
    ])
    const map = await call(reader, 'get_story_map', { projectId: ids.project })
    expect(textOf(map)).toContain(`Goal "Goal" [${ids.workflow}]`)
    expect(textOf(map)).toContain(`- "Feature" [${ids.feature}] (1 comment)`)
    expect(map.structuredContent).toMatchObject({
      project: { id: ids.project },
      features: [{ id: ids.feature }],
    })
    const found = await call(reader, 'search_cards', { projectId: ids.project, query: 'hello' })
    expect(found.structuredContent.features.map((f: { id: string }) => f.id)).toEqual([ids.feature]) // by its comment
    expect(textOf(await call(reader, 'search_cards', { projectId: ids.project, query: 'zebra' }))).toBe(
      'No feature matches "zebra".',
    )
  })

  it('writes as one change each, seen live with "via" and undone by undo', async () => {
    const live = await LiveStream.open(server.url, `/v1/projects/${ids.project}/events`, {
      client: owner.client,
    })
    await live.next('ready')
    const added = await call(writer, 'add_feature', {
      activityId: ids.subworkflow,
      releaseId: ids.milestone,
      title: 'Pay by card',
      size: 5,
      color: 'TEAL',
      annotations: ['RISKY'],
    })
    expect(added.isError, textOf(added)).toBeFalsy()
    const featureId = added.structuredContent.id
    const event = await live.next('change')
    expect(event.data.by).toMatchObject({ name: 'Ana', via: 'Claude' })
    expect(event.data.changes[0].entity).toMatchObject({
      id: featureId,
      title: 'Pay by card',
      estimate: 5,
      color: 'TEAL',
      annotations: 'RISKY',
    })
    const activity = await owner.client.get(`/v1/projects/${ids.project}/activity?limit=1`)
    expect(activity.json.items[0].by).toMatchObject({ name: 'Ana', via: 'Claude' })

    const undone = await call(writer, 'undo', { projectId: ids.project })
    expect(textOf(undone)).toMatch(/^Undid: /)
    expect((await live.next('change')).data.changes[0]).toMatchObject({ op: 'delete', id: featureId })
    expect((await bundle(owner.client, ids.project)).features.map((f: { id: string }) => f.id)).not.toContain(
      featureId,
    )
    live.close()
  })

  it('adds goals, activities and releases, changes, moves, comments and deletes', async () => {
    const goal = (await call(writer, 'add_goal', { projectId: ids.project, title: 'Deliver' }))
      .structuredContent.id
    const activity = (await call(writer, 'add_activity', { goalId: goal, title: 'Ship', color: 'BLUE' }))
      .structuredContent.id
    const release = (await call(writer, 'add_release', { projectId: ids.project, title: 'Later' }))
      .structuredContent.id
    const feature = (
      await call(writer, 'add_feature', { activityId: activity, releaseId: release, title: 'Track' })
    ).structuredContent.id
    const changed = await call(writer, 'update_card', {
      id: feature,
      title: 'Track parcel',
      description: 'Live map',
      size: 3,
      status: 'CLOSED',
    })
    expect(changed.isError, textOf(changed)).toBeFalsy()
    const moved = await call(writer, 'move_card', {
      id: feature,
      activityId: ids.subworkflow,
      releaseId: ids.milestone,
      beforeId: ids.feature,
    })
    expect(moved.isError, textOf(moved)).toBeFalsy()
    expect((await call(writer, 'move_card', { id: release, beforeId: ids.milestone })).isError).toBeFalsy()
    expect(
      (await call(writer, 'add_comment', { featureId: ids.feature, text: 'Agreed' })).isError,
    ).toBeFalsy()

    const map = await bundle(owner.client, ids.project)
    expect(map.milestones.map((m: { id: string }) => m.id)).toEqual([release, ids.milestone])
    const cell = map.features
      .filter((f: { milestoneId: string }) => f.milestoneId === ids.milestone)
      .map((f: { id: string }) => f.id)
    expect(cell).toEqual([feature, ids.feature])
    expect(map.features.find((f: { id: string }) => f.id === feature)).toMatchObject({
      title: 'Track parcel',
      description: 'Live map',
      estimate: 3,
      status: 'CLOSED',
    })
    expect(map.subWorkflows.find((s: { id: string }) => s.id === activity)).toMatchObject({
      color: 'BLUE',
      workflowId: goal,
    })

    expect(textOf(await call(writer, 'delete_card', { id: goal }))).toContain('trash')
    const trash = await owner.client.get(`/v1/projects/${ids.project}/trash`)
    expect(trash.json.items[0]).toMatchObject({ kind: 'workflow', title: 'Deliver' })
  })
})

describe('search_cards and mentions', () => {
  it('finds a mention by the name it shows (the current one), never by the stored token', async () => {
    const ann = await signUp(server.url, { name: 'Ann Lee' })
    addMember(server.dbPath, owner.workspaceId, ann.account.id, 'VIEWER')
    const members = (await owner.client.get('/v1/members')).json as { id: string; accountId: string }[]
    const annMember = members.find((m) => m.accountId === ann.account.id)!.id
    const board = await makeBoard(owner.client)
    const res = await owner.client.post(`/v1/featurecomments/${crypto.randomUUID()}`, {
      featureId: board.feature,
      post: `Ask @[member:${annMember}] first`,
    })
    expect(res.status).toBe(200)
    const found = async (query: string) =>
      (
        (await call(reader, 'search_cards', { projectId: board.project, query })).structuredContent
          ?.features ?? []
      ).map((f: { id: string }) => f.id)
    expect(await found('Ann')).toEqual([board.feature])
    expect(await found('@ann lee')).toEqual([board.feature])
    expect(await found('member:')).toEqual([])
    expect(await found(annMember)).toEqual([])
    expect((await ann.client.post('/v1/account/nameupdate', { name: 'Bea Baker' })).status).toBe(200)
    expect(await found('@Bea')).toEqual([board.feature])
    expect(await found('Ann')).toEqual([])
  })
})

describe('refusals are tool errors in words, and change nothing', () => {
  const version = async () => (await bundle(owner.client, ids.project)).version

  it('a read token may not write', async () => {
    const before = await version()
    const answer = await call(reader, 'add_goal', { projectId: ids.project, title: 'Nope' })
    expect(answer.isError).toBe(true)
    expect(textOf(answer)).toMatch(/only read/)
    expect(await version()).toBe(before)
  })

  it('bad ids, unknown ids, another workspace’s ids and bad values', async () => {
    const before = await version()
    const stranger = await signUp(server.url)
    const foreign = await makeBoard(stranger.client)
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['update_card', { id: 'not-an-id', title: 'x' }, /must be an id/],
      ['update_card', { id: crypto.randomUUID(), title: 'x' }, /No card with this id/],
      ['update_card', { id: foreign.feature, title: 'Taken over' }, /No card with this id/],
      ['get_story_map', { projectId: foreign.project }, /not found/i],
      [
        'add_feature',
        { activityId: foreign.subworkflow, releaseId: foreign.milestone, title: 'x' },
        /not found|No /i,
      ],
      ['add_goal', { projectId: ids.project, title: 'x'.repeat(201) }, /Title is invalid/],
      ['update_card', { id: ids.milestone, size: 3 }, /Only features have a size/],
      ['update_card', { id: ids.feature, color: 'PLAID' }, /color/i],
      ['add_goal', { projectId: ids.project }, /title|Title/],
      ['undo', { projectId: foreign.project }, /not found/i],
    ]
    for (const [name, args, message] of cases) {
      const answer = await call(writer, name, args)
      expect(answer.isError, `${name} ${JSON.stringify(args)}: ${textOf(answer)}`).toBe(true)
      expect(textOf(answer)).toMatch(message)
    }
    expect(await version()).toBe(before)
    expect((await bundle(stranger.client, foreign.project)).features[0].title).toBe('Feature')
  })
})
