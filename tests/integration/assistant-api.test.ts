import Database from 'better-sqlite3'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { ASSISTANT_MESSAGES } from '~/features/assistant'
import { parseJsonImport } from '~/features/transfer/import-json'
import { logger } from '~/lib/logger.server'
import { addMember, bundle, makeBoard, uuid } from '../support/board'
import { Client, signUp } from '../support/client'
import { FakeOpenAI } from '../support/fake-openai'
import { answerChecker } from '../support/openapi'
import { startServer, type RunningServer } from '../support/server'

/**
 * The assistant's routes (CONTRACT §16) on the built server against a fake OpenAI-compatible
 * API: answers, who may call them, the limit, every failure, and that nothing is written or
 * sent that should not be.
 */
const KEY = 'sk-assistant-routes'
const MODEL = 'storymap-test-model'
const DESCRIPTION = 'A marketplace where neighbours lend tools: list a drill, book it, return it.'
const FAILED = "The assistant's answer could not be used. Try again."
let fake: FakeOpenAI
let server: RunningServer
let check: ReturnType<typeof answerChecker>

beforeAll(async () => {
  logger.level = 'error'
  fake = await new FakeOpenAI({ apiKey: KEY, models: [MODEL] }).start()
  server = await startServer({
    AI_BASE_URL: fake.url,
    AI_MODEL: MODEL,
    AI_API_KEY: KEY,
    AI_TIMEOUT_SECONDS: '3',
    RATE_LIMIT: 'on',
  })
  check = answerChecker((await fetch(`${server.url}/v1/openapi.json`).then((r) => r.json())) as never)
})
afterEach(() => fake.reset())
afterAll(async () => {
  await server?.stop()
  await fake?.stop()
})

type Answer = Awaited<ReturnType<Client['post']>>
const DRAFT = '/v1/assistant/draft-map'
const SUGGEST = '/v1/features/{id}/assistant'

async function draft(client: Client, body: unknown = { description: DESCRIPTION }, headers = {}) {
  const answer: Answer = await client.post(DRAFT, body, headers)
  check.check('POST', DRAFT, answer)
  return answer
}
async function suggest(client: Client, featureId: string, action: string) {
  const answer: Answer = await client.post(`/v1/features/${featureId}/assistant`, { action })
  check.check('POST', SUGGEST, answer)
  return answer
}
const refusal = (answer: Answer) => [answer.status, answer.json?.error]

/** A workspace with a board, its feature described, and a neighbour in the feature's cell. */
async function workspace() {
  const owner = await signUp(server.url)
  const ids = await makeBoard(owner.client)
  const neighbour = uuid()
  const made = await owner.client.post(`/v1/features/${neighbour}`, {
    milestoneId: ids.milestone,
    subWorkflowId: ids.subworkflow,
    title: 'Pay at pickup',
  })
  expect(made.status, made.text).toBe(200)
  const version = async () => (await bundle(owner.client, ids.project)).version as number
  return { owner, ids, neighbour, version }
}

/** One workspace for the failure and stream tests: they ask well under the member's 20 a minute, and sign-ups are limited too. */
let shared: ReturnType<typeof workspace> | undefined
const sharedWorkspace = () => (shared ??= workspace())

async function memberOf(owner: Awaited<ReturnType<typeof signUp>>, level: 'VIEWER' | 'EDITOR') {
  const other = await signUp(server.url)
  addMember(server.dbPath, owner.workspaceId, other.account.id, level)
  other.client.workspaceId = owner.workspaceId
  return other
}

/** Every chat request's text, as the fake received it. */
const sent = () =>
  fake.requests
    .filter((r) => r.path.endsWith('/chat/completions'))
    .map((r) => r.text)
    .join('\n')

describe('answers, written nowhere', () => {
  it('drafts a map in the export shape, with a session from the same site', async () => {
    const { owner, version } = await workspace()
    const before = await version()
    const res = await draft(owner.client, { description: DESCRIPTION }, { Origin: server.url })
    expect(res.status, res.text).toBe(200)
    const imported = parseJsonImport(JSON.stringify(res.json.map))
    expect(imported.milestones).toHaveLength(3)
    expect(imported.features.length).toBeGreaterThan(0)
    expect(fake.chats).toHaveLength(1)
    expect(fake.chats[0].response_format).toMatchObject({
      type: 'json_schema',
      json_schema: { name: 'story_map' },
    })
    expect(fake.chats[0].messages.at(-1).content).toContain(DESCRIPTION)
    expect(await version()).toBe(before)
    expect((await owner.client.get('/v1/projects')).json).toHaveLength(1)
  })

  it('splits a feature and writes criteria from its context, never an e-mail address or a token', async () => {
    const { owner, ids, version } = await workspace()
    const token = await owner.client.post('/v1/account/tokens', {
      name: 'CI',
      workspaceId: owner.workspaceId,
      scope: 'write',
    })
    expect(token.status, token.text).toBe(201)
    const secret = token.json.secret as string
    const described = await owner.client.post(`/v1/features/${ids.feature}/description`, {
      description: `Ask ${owner.email} before booking; the CI uses ${secret}.`,
    })
    expect(described.status, described.text).toBe(200)
    const before = await version()

    const split = await suggest(owner.client, ids.feature, 'split')
    expect(split.status, split.text).toBe(200)
    expect(split.json.suggestions.length).toBeGreaterThanOrEqual(3)
    expect(split.json.suggestions.length).toBeLessThanOrEqual(6)
    expect(split.json.suggestions[0]).toEqual({ title: expect.any(String), description: expect.any(String) })
    const criteria = await suggest(owner.client, ids.feature, 'criteria')
    expect(criteria.status, criteria.text).toBe(200)
    expect(criteria.json.criteria.length).toBeGreaterThan(0)
    expect(await version()).toBe(before)

    expect(fake.chats).toHaveLength(2)
    for (const chat of fake.chats) expect(chat.response_format.type).toBe('json_schema')
    const user = fake.chats[0].messages.at(-1).content as string
    for (const title of ['Feature', 'Release', 'Goal', 'Activity', 'Pay at pickup'])
      expect(user).toContain(title)
    const text = sent()
    expect(text).not.toContain(owner.email)
    expect(text).not.toMatch(/[\w.+-]+@[\w-]+\.[\w.]+/)
    expect(text).not.toContain(secret)
    expect(text).not.toContain('smp_')
    expect(text).not.toContain(owner.workspaceId)
    for (const cookie of owner.client.cookies.values()) expect(text).not.toContain(cookie)
  })

  it('answers a write token of the workspace as its member; a read token may only GET', async () => {
    const { owner, ids } = await workspace()
    const bearer = async (scope: 'read' | 'write') => {
      const token = await owner.client.post('/v1/account/tokens', {
        name: scope,
        workspaceId: owner.workspaceId,
        scope,
      })
      const answer: Answer = await new Client(server.url).post(
        `/v1/features/${ids.feature}/assistant`,
        { action: 'criteria' },
        { Authorization: `Bearer ${token.json.secret}` },
      )
      check.check('POST', SUGGEST, answer)
      return answer
    }
    expect((await bearer('write')).status).toBe(200)
    expect(refusal(await bearer('read'))).toEqual([403, 'token_read_only'])
  })
})

describe('refusals', () => {
  it('checks the body and the feature: another workspace’s feature is not found', async () => {
    const { owner, ids } = await workspace()
    const stranger = await workspace()
    expect(refusal(await draft(owner.client, { description: ' ' }))).toEqual([400, 'description_invalid'])
    expect(refusal(await draft(owner.client, { description: 'x'.repeat(4001) }))).toEqual([
      400,
      'description_invalid',
    ])
    expect(refusal(await suggest(owner.client, ids.feature, 'rewrite'))).toEqual([400, 'action_invalid'])
    expect(refusal(await suggest(owner.client, stranger.ids.feature, 'split'))).toEqual([
      404,
      'feature_not_found',
    ])
    expect(refusal(await suggest(owner.client, uuid(), 'split'))).toEqual([404, 'feature_not_found'])
    expect(refusal(await new Client(server.url).post(DRAFT, { description: DESCRIPTION }))).toEqual([
      401,
      'unauthorized',
    ])
    expect(fake.chats).toHaveLength(0)
  })

  it('refuses a viewer, and everyone on an ended plan; an editor may', async () => {
    const { owner, ids } = await workspace()
    const viewer = await memberOf(owner, 'VIEWER')
    const editor = await memberOf(owner, 'EDITOR')
    expect(refusal(await draft(viewer.client))).toEqual([403, 'level_too_low'])
    expect(refusal(await suggest(viewer.client, ids.feature, 'split'))).toEqual([403, 'level_too_low'])
    expect((await suggest(editor.client, ids.feature, 'criteria')).status).toBe(200)

    const db = new Database(server.dbPath)
    db.prepare('update subscriptions set expiration_date = ? where workspace_id = ?').run(
      '2000-01-01T00:00:00.000Z',
      owner.workspaceId,
    )
    db.close()
    expect(refusal(await draft(owner.client))).toEqual([403, 'plan_inactive'])
    expect(refusal(await suggest(editor.client, ids.feature, 'split'))).toEqual([403, 'plan_inactive'])
    expect(fake.chats).toHaveLength(1)
  })

  it('answers 20 requests a minute per member, then 429 with Retry-After', async () => {
    const { owner, ids } = await workspace()
    const editor = await memberOf(owner, 'EDITOR')
    for (let i = 0; i < 20; i++)
      expect((await suggest(owner.client, ids.feature, 'criteria')).status).toBe(200)
    const over = await suggest(owner.client, ids.feature, 'criteria')
    expect(refusal(over)).toEqual([429, 'too_many_requests'])
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(refusal(await draft(owner.client))).toEqual([429, 'too_many_requests'])
    // Per member: another member of the workspace is not held back.
    expect((await suggest(editor.client, ids.feature, 'criteria')).status).toBe(200)
  })
})

describe('failures', () => {
  it('asks once more after an unusable answer; twice unusable is assistant_failed', async () => {
    const { owner, ids, version } = await sharedWorkspace()
    const before = await version()
    fake.answerBadly('not-json', 1)
    expect((await draft(owner.client)).status).toBe(200)
    expect(fake.chats).toHaveLength(2)

    fake.reset()
    fake.answerBadly('off-schema')
    const failed = await suggest(owner.client, ids.feature, 'split')
    expect(failed.status).toBe(502)
    expect(failed.json).toEqual({ error: 'assistant_failed', message: FAILED })
    expect(ASSISTANT_MESSAGES.assistant_failed).toBe(FAILED)
    expect(fake.chats).toHaveLength(2)
    expect(refusal(await draft(owner.client))).toEqual([502, 'assistant_failed'])
    expect(await version()).toBe(before)
  })

  it('no answer within AI_TIMEOUT_SECONDS is 504 assistant_timeout', async () => {
    const { owner, ids, version } = await sharedWorkspace()
    const before = await version()
    fake.slow({ firstMs: 5000 })
    const started = Date.now()
    const res = await suggest(owner.client, ids.feature, 'criteria')
    expect(res.json).toEqual({ error: 'assistant_timeout', message: ASSISTANT_MESSAGES.assistant_timeout })
    expect(res.status).toBe(504)
    expect(Date.now() - started).toBeLessThan(4900)
    expect(await version()).toBe(before)
  })

  it('a key the model refuses (401) is 502 assistant_unavailable, asked once', async () => {
    const { owner, ids } = await sharedWorkspace()
    fake.failWith(401)
    const res = await suggest(owner.client, ids.feature, 'split')
    expect(res.status).toBe(502)
    expect(res.json).toEqual({
      error: 'assistant_unavailable',
      message: ASSISTANT_MESSAGES.assistant_unavailable,
    })
    expect(fake.chats).toHaveLength(1)
    expect(refusal(await draft(owner.client))).toEqual([502, 'assistant_unavailable'])
  })
})

/** The draft as a browser asks for it streamed: fetch with the session cookie and the Workspace header. */
const streamRequest = (client: Client, body: unknown, signal?: AbortSignal) =>
  fetch(`${server.url}${DRAFT}`, {
    method: 'POST',
    headers: {
      Cookie: client.cookieHeader(),
      Workspace: client.workspaceId!,
      Origin: server.url,
      'Content-Type': 'application/json',
      Accept: 'application/x-ndjson',
    },
    body: JSON.stringify(body),
    signal,
  })

async function streamDraft(client: Client, body: unknown = { description: DESCRIPTION }) {
  const res = await streamRequest(client, body)
  const text = await res.text()
  const json = res.headers.get('content-type')?.startsWith('application/json') ? JSON.parse(text) : undefined
  check.check('POST', DRAFT, { status: res.status, headers: res.headers, text, json })
  const lines = res.headers.get('content-type')?.startsWith('application/x-ndjson')
    ? text
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line))
    : []
  return { status: res.status, type: res.headers.get('content-type'), text, lines }
}

describe('the streamed draft (Accept: application/x-ndjson)', () => {
  it('sends previews as they come, then the map; writes nothing', async () => {
    const { owner, version } = await sharedWorkspace()
    const before = await version()
    fake.slow({ chunkMs: 4 })
    const { status, type, lines } = await streamDraft(owner.client)
    expect(status).toBe(200)
    expect(type).toMatch(/^application\/x-ndjson/)
    const partials = lines.filter((l) => l.type === 'partial')
    expect(partials.length).toBeGreaterThan(1)
    expect(lines.slice(0, -1).every((l) => l.type === 'partial')).toBe(true)
    const done = lines.at(-1)
    expect(done.type).toBe('done')
    expect(parseJsonImport(JSON.stringify(done.map)).milestones).toHaveLength(3)
    expect(fake.chats[0]).toMatchObject({ stream: true, response_format: { type: 'json_schema' } })
    expect(await version()).toBe(before)
  })

  it('says `retry` after an unusable first answer, and still ends with the map', async () => {
    const { owner } = await sharedWorkspace()
    fake.answerBadly('not-json', 1)
    const { lines } = await streamDraft(owner.client)
    expect(lines.map((l) => l.type)).toContain('retry')
    expect(lines.at(-1).type).toBe('done')
    expect(fake.chats).toHaveLength(2)
  })

  it('ends with an error line carrying the JSON answer’s code and text', async () => {
    const { owner } = await sharedWorkspace()
    fake.answerBadly('off-schema')
    const failed = await streamDraft(owner.client)
    expect(failed.status).toBe(200)
    expect(failed.lines.at(-1)).toEqual({
      type: 'error',
      error: { code: 'assistant_failed', message: FAILED },
    })
    fake.reset()
    fake.failWith(401)
    expect((await streamDraft(owner.client)).lines.at(-1)).toEqual({
      type: 'error',
      error: { code: 'assistant_unavailable', message: ASSISTANT_MESSAGES.assistant_unavailable },
    })
    fake.reset()
    fake.slow({ firstMs: 5000 })
    expect((await streamDraft(owner.client)).lines.at(-1)).toEqual({
      type: 'error',
      error: { code: 'assistant_timeout', message: ASSISTANT_MESSAGES.assistant_timeout },
    })
  })

  it('ends quietly when the browser leaves mid-stream', async () => {
    const { owner } = await sharedWorkspace()
    fake.slow({ chunkMs: 20 })
    const controller = new AbortController()
    const res = await streamRequest(owner.client, { description: DESCRIPTION }, controller.signal)
    expect((await res.body!.getReader().read()).done).toBe(false)
    controller.abort()
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(server.output()).not.toMatch(/"level":50/)
    expect(server.process.exitCode).toBeNull()
  })

  it('refuses before the stream begins in the ordinary JSON shape', async () => {
    const { owner } = await sharedWorkspace()
    const viewer = await memberOf(owner, 'VIEWER')
    const refused = await streamDraft(viewer.client)
    expect([refused.status, JSON.parse(refused.text).error]).toEqual([403, 'level_too_low'])
    const empty = await streamDraft(owner.client, { description: '' })
    expect([empty.status, JSON.parse(empty.text).error]).toEqual([400, 'description_invalid'])
  })
})

describe('without AI_BASE_URL and AI_MODEL', () => {
  it('both routes are 404 assistant_off for everyone signed in, before any other check', async () => {
    const off = await startServer()
    try {
      const owner = await signUp(off.url)
      const ids = await makeBoard(owner.client)
      const viewer = await signUp(off.url)
      addMember(off.dbPath, owner.workspaceId, viewer.account.id, 'VIEWER')
      viewer.client.workspaceId = owner.workspaceId
      const feature = `/v1/features/${ids.feature}/assistant`
      for (const client of [owner.client, viewer.client]) {
        const drafted = await client.post(DRAFT, { description: DESCRIPTION })
        expect(drafted.json).toEqual({ error: 'assistant_off', message: expect.any(String) })
        expect(drafted.status).toBe(404)
        expect(refusal(await client.post(feature, { action: 'split' }))).toEqual([404, 'assistant_off'])
        expect(refusal(await client.post(feature, {}))).toEqual([404, 'assistant_off'])
      }
      expect(refusal(await new Client(off.url).post(DRAFT, {}))).toEqual([401, 'unauthorized'])
    } finally {
      await off.stop()
    }
  })
})
