import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { AssistantError } from '~/features/assistant/assistant-errors'
import {
  assistantConfigOf,
  draftMap,
  requireAssistant,
  streamDraftMap,
  suggestCriteria,
  suggestSplit,
  type AssistantConfig,
  type DraftStreamEvent,
} from '~/features/assistant/assistant-model.server'
import {
  ACCEPTANCE_CRITERIA_SYSTEM_PROMPT,
  DRAFT_MAP_SYSTEM_PROMPT,
  draftMapUserMessage,
  SPLIT_FEATURE_SYSTEM_PROMPT,
  type FeatureContext,
} from '~/features/assistant/assistant-prompts'
import { draftMapSchema } from '~/features/assistant/assistant-schemas'
import { parseJsonImport } from '~/features/transfer/import-json'
import { parseEnv, type Env } from '~/lib/env-schema'
import { DomainError } from '~/lib/errors'
import { logger } from '~/lib/logger.server'
import { FakeOpenAI } from '../support/fake-openai'

/**
 * The assistant's model calls (CONTRACT §16) against a fake OpenAI-compatible server, through
 * the real AI SDK: what is sent, the one retry, and how every failure ends.
 */
const KEY = 'sk-assistant-test'
const MODEL = 'storymap-test-model'
const DESCRIPTION =
  'A marketplace where neighbours lend tools: list a drill, book it for a weekend, return it.'
let fake: FakeOpenAI
let config: AssistantConfig

const context = {
  feature: { title: 'Book a tool', description: 'Pick the days and send the request to the owner.' },
  release: { title: 'First release' },
  goal: { title: 'Borrow a tool' },
  activity: { title: 'Book' },
  neighbours: [{ title: 'See when a tool is free' }],
  // What the route's objects also carry, which must never be sent.
  owner: { email: 'owner.one@example.com', apiToken: 'smp_Zx8Yw7Vu6Ts5Rq4Po3Nm' },
  workspaceId: '5b0c1d2e-3f40-4152-8a6b-7c8d9e0f1a2b',
} satisfies FeatureContext & Record<string, unknown>

const failure = <T>(promise: Promise<T>) =>
  promise.then(
    () => {
      throw new Error('expected the call to fail')
    },
    (error: unknown) => error,
  )

async function drain(events: AsyncGenerator<DraftStreamEvent>) {
  const seen: DraftStreamEvent[] = []
  try {
    for await (const event of events) seen.push(event)
    return { seen }
  } catch (error) {
    return { seen, error }
  }
}

beforeAll(async () => {
  logger.level = 'error'
  fake = await new FakeOpenAI({ apiKey: KEY, models: [MODEL] }).start()
  config = { baseURL: fake.url, apiKey: KEY, model: MODEL, timeoutSeconds: 10 }
})
afterEach(() => fake.reset())
afterAll(() => fake?.stop())

describe('the assistant’s configuration', () => {
  const env = (raw: Record<string, string>) => (parseEnv(raw) as { ok: true; env: Env }).env

  it('is off without AI_BASE_URL: the routes answer 404 assistant_off', () => {
    expect(assistantConfigOf(env({}))).toBeNull()
    const error = (() => {
      try {
        requireAssistant(env({}))
      } catch (e) {
        return e
      }
    })()
    expect(error).toBeInstanceOf(DomainError)
    expect(error).toMatchObject({ kind: 'not_found', code: 'assistant_off' })
  })

  it('reads the address, key, model and wait from the environment', () => {
    const on = env({
      AI_BASE_URL: 'http://127.0.0.1:11434/v1/',
      AI_MODEL: 'llama3.1',
      AI_TIMEOUT_SECONDS: '30',
    })
    expect(requireAssistant(on)).toEqual({
      baseURL: 'http://127.0.0.1:11434/v1',
      apiKey: undefined,
      model: 'llama3.1',
      timeoutSeconds: 30,
    })
  })
})

describe('the assistant’s model calls', () => {
  it('drafts a map: the fixed system prompt, the description, and the draft’s schema in the request', async () => {
    const { draft, map } = await draftMap(config, DESCRIPTION)
    expect(draftMapSchema.safeParse(draft).success).toBe(true)
    const imported = parseJsonImport(JSON.stringify(map))
    expect(imported.title).toBe(draft.title)
    expect(imported.milestones).toHaveLength(3)

    expect(fake.requests).toHaveLength(1)
    const [request] = fake.requests
    expect(request.headers.authorization).toBe(`Bearer ${KEY}`)
    expect(request.body.model).toBe(MODEL)
    expect(request.body.messages).toEqual([
      { role: 'system', content: DRAFT_MAP_SYSTEM_PROMPT },
      { role: 'user', content: draftMapUserMessage(DESCRIPTION) },
    ])
    const format = request.body.response_format
    expect(format).toMatchObject({ type: 'json_schema', json_schema: { name: 'story_map', strict: false } })
    expect(format.json_schema.schema).toMatchObject({
      type: 'object',
      required: ['title', 'description', 'releases', 'goals', 'personas'],
      additionalProperties: false,
      properties: { releases: { minItems: 3, maxItems: 3 }, goals: { minItems: 1, maxItems: 5 } },
    })
  })

  it('sends no key when AI_API_KEY is unset', async () => {
    fake.apiKey = undefined
    try {
      await suggestCriteria({ ...config, apiKey: undefined }, context)
      expect(fake.requests[0].headers.authorization).toBeUndefined()
    } finally {
      fake.apiKey = KEY
    }
  })

  it('suggests 3–6 smaller features, sending the feature and its place and nothing else', async () => {
    const suggestions = await suggestSplit(config, context)
    expect(suggestions.length).toBeGreaterThanOrEqual(3)
    expect(suggestions.length).toBeLessThanOrEqual(6)
    for (const s of suggestions)
      expect(s).toEqual({ title: expect.any(String), description: expect.any(String) })

    const [request] = fake.requests
    expect(request.body.messages[0]).toEqual({ role: 'system', content: SPLIT_FEATURE_SYSTEM_PROMPT })
    expect(request.body.messages).toHaveLength(2)
    const user = request.body.messages[1].content as string
    for (const part of [
      'Book a tool',
      'Pick the days',
      'First release',
      'Borrow a tool',
      'Activity: Book',
      'See when a tool is free',
    ]) {
      expect(user).toContain(part)
    }
    for (const secret of ['owner.one@example.com', 'smp_Zx8Yw7Vu6Ts5Rq4Po3Nm', context.workspaceId]) {
      expect(request.text).not.toContain(secret)
      expect(JSON.stringify(request.headers)).not.toContain(secret)
    }
  })

  it('suggests acceptance criteria as a list of strings', async () => {
    const criteria = await suggestCriteria(config, context)
    expect(criteria.length).toBeGreaterThan(0)
    expect(criteria.every((c) => typeof c === 'string' && c.length > 0)).toBe(true)
    expect(fake.chats[0].messages[0].content).toBe(ACCEPTANCE_CRITERIA_SYSTEM_PROMPT)
    expect(fake.chats[0].response_format.json_schema.name).toBe('acceptance_criteria')
  })

  it.each(['not-json', 'off-schema'] as const)(
    'asks exactly once more after an unusable answer (%s), and uses the second',
    async (kind) => {
      fake.answerBadly(kind, 1)
      const criteria = await suggestCriteria(config, context)
      expect(criteria.length).toBeGreaterThan(0)
      expect(fake.chats).toHaveLength(2)
      expect(fake.chats[1]).toEqual(fake.chats[0])
    },
  )

  it.each(['not-json', 'off-schema'] as const)(
    'two unusable answers (%s): assistant_failed (502) after exactly two requests',
    async (kind) => {
      fake.answerBadly(kind)
      const error = await failure(suggestSplit(config, context))
      expect(error).toBeInstanceOf(AssistantError)
      expect(error).toMatchObject({
        code: 'assistant_failed',
        status: 502,
        message: "The assistant's answer could not be used. Try again.",
      })
      expect(fake.chats).toHaveLength(2)
    },
  )

  it('a 500 is asked once more too: assistant_failed after two, an answer when the second is good', async () => {
    fake.failWith(500)
    expect(await failure(draftMap(config, DESCRIPTION))).toMatchObject({ code: 'assistant_failed' })
    expect(fake.chats).toHaveLength(2)
    fake.reset()
    fake.failWith(500, 1)
    await expect(draftMap(config, DESCRIPTION)).resolves.toMatchObject({
      draft: { releases: expect.any(Array) },
    })
    expect(fake.chats).toHaveLength(2)
  })

  it.each([401, 403] as const)(
    'the model refuses the key (%i): assistant_unavailable (502), not asked again',
    async (status) => {
      fake.failWith(status)
      const error = await failure(suggestCriteria(config, context))
      expect(error).toBeInstanceOf(AssistantError)
      expect(error).toMatchObject({ code: 'assistant_unavailable', status: 502, kind: 'upstream' })
      expect(fake.chats).toHaveLength(1)
    },
  )

  it('a wrong key, and an unknown model: assistant_unavailable', async () => {
    expect(await failure(suggestCriteria({ ...config, apiKey: 'sk-wrong' }, context))).toMatchObject({
      code: 'assistant_unavailable',
    })
    expect(await failure(suggestCriteria({ ...config, model: 'no-such-model' }, context))).toMatchObject({
      code: 'assistant_unavailable',
    })
  })

  it('no answer within AI_TIMEOUT_SECONDS: assistant_timeout (504)', async () => {
    fake.slow({ firstMs: 10_000 })
    const started = Date.now()
    const error = await failure(draftMap({ ...config, timeoutSeconds: 0.3 }, DESCRIPTION))
    expect(error).toBeInstanceOf(AssistantError)
    expect(error).toMatchObject({ code: 'assistant_timeout', status: 504 })
    expect(Date.now() - started).toBeLessThan(3_000)
    expect(fake.chats).toHaveLength(1)
  })

  it('the wait covers both tries together', async () => {
    fake.slow({ firstMs: 600 })
    fake.answerBadly('not-json', 1)
    const error = await failure(suggestSplit({ ...config, timeoutSeconds: 1 }, context))
    expect(error).toMatchObject({ code: 'assistant_timeout' })
    expect(fake.chats).toHaveLength(2)
  })

  it('ends with the caller’s reason when the caller goes away, not with an assistant error', async () => {
    fake.slow({ firstMs: 10_000 })
    const caller = new AbortController()
    const pending = failure(suggestSplit(config, context, { signal: caller.signal }))
    setTimeout(() => caller.abort(new Error('the browser went away')), 100)
    const error = await pending
    expect(error).not.toBeInstanceOf(AssistantError)
    expect(error).toMatchObject({ message: 'the browser went away' })
  })
})

describe('the streamed draft', () => {
  it('yields growing partial previews, then the checked draft and its §8 JSON', async () => {
    const { seen, error } = await drain(streamDraftMap(config, DESCRIPTION))
    expect(error).toBeUndefined()
    const partials = seen.filter((e) => e.type === 'partial')
    expect(partials.length).toBeGreaterThan(20)
    const done = seen.at(-1)
    if (done?.type !== 'done') throw new Error('the stream did not end with its draft')
    expect(partials.at(-1)!.draft).toEqual(done.draft)
    // goals arrive one after the other
    const goalCounts = partials.map((p) => (p.type === 'partial' ? (p.draft.goals?.length ?? 0) : 0))
    expect(goalCounts[0]).toBe(0)
    expect(Math.max(...goalCounts)).toBe(done.draft.goals.length)
    expect(parseJsonImport(JSON.stringify(done.map)).features.length).toBeGreaterThan(0)
    expect(fake.chats[0]).toMatchObject({ stream: true, response_format: { type: 'json_schema' } })
  })

  it('an unusable first answer: retry, then a whole new preview and the draft', async () => {
    fake.answerBadly('off-schema', 1)
    const { seen, error } = await drain(streamDraftMap(config, DESCRIPTION))
    expect(error).toBeUndefined()
    const retry = seen.findIndex((e) => e.type === 'retry')
    expect(retry).toBeGreaterThan(0)
    expect(seen.filter((e) => e.type === 'retry')).toHaveLength(1)
    expect(seen.slice(retry + 1).some((e) => e.type === 'partial')).toBe(true)
    expect(seen.at(-1)?.type).toBe('done')
    expect(fake.chats).toHaveLength(2)
  })

  it('two unusable answers: assistant_failed after exactly two requests', async () => {
    fake.answerBadly('not-json')
    const { seen, error } = await drain(streamDraftMap(config, DESCRIPTION))
    expect(error).toMatchObject({ code: 'assistant_failed', status: 502 })
    expect(seen.some((e) => e.type === 'done')).toBe(false)
    expect(fake.chats).toHaveLength(2)
  })

  it('a refused key: assistant_unavailable at once', async () => {
    fake.failWith(401)
    const { seen, error } = await drain(streamDraftMap(config, DESCRIPTION))
    expect(error).toMatchObject({ code: 'assistant_unavailable' })
    expect(seen).toEqual([])
    expect(fake.chats).toHaveLength(1)
  })

  it('a stream that stalls: some partials, then assistant_timeout', async () => {
    fake.slow({ chunkMs: 30 })
    const { seen, error } = await drain(streamDraftMap({ ...config, timeoutSeconds: 0.5 }, DESCRIPTION))
    expect(seen.some((e) => e.type === 'partial')).toBe(true)
    expect(error).toMatchObject({ code: 'assistant_timeout', status: 504 })
  })
})
