import { createOpenAICompatible } from '@ai-sdk/openai-compatible'
import {
  APICallError,
  generateText,
  JSONParseError,
  NoObjectGeneratedError,
  NoOutputGeneratedError,
  Output,
  streamText,
  TypeValidationError,
} from 'ai'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { FakeOpenAI } from '../support/fake-openai'

/**
 * The fake OpenAI-compatible server speaks what the real AI SDK expects (ai 7,
 * @ai-sdk/openai-compatible 3): whole and streamed structured answers, and each failure as the
 * SDK reports it — the error classes the assistant (app/features/assistant) relies on.
 */
const KEY = 'sk-fake-key'
const MODEL = 'storymap-test-model'
let fake: FakeOpenAI

const schema = z.object({
  goals: z
    .array(
      z.object({
        title: z.string().min(1).max(60),
        activities: z
          .array(z.object({ title: z.string().min(1).max(60), description: z.string().max(300) }))
          .min(1)
          .max(3),
      }),
    )
    .min(2)
    .max(4),
  releases: z.array(z.object({ title: z.string().min(1).max(60) })).length(3),
})

const modelOf = (options: { apiKey?: string; model?: string } = {}) =>
  createOpenAICompatible({
    name: 'assistant',
    baseURL: fake.url,
    apiKey: 'apiKey' in options ? options.apiKey : KEY,
    supportsStructuredOutputs: true,
    includeUsage: true,
  }).chatModel(options.model ?? MODEL)

const PROMPT = 'An online bakery: customers browse cakes, order for pick-up and pay by card.'
const ask = (extra: Partial<Parameters<typeof generateText>[0]> = {}) =>
  generateText({
    model: modelOf(),
    output: Output.object({ schema }),
    prompt: PROMPT,
    maxRetries: 0,
    ...extra,
  } as any)

/** Streams an answer; the partial outputs seen, and the output or the error the SDK ends with. */
async function stream(extra: object = {}) {
  const errors: unknown[] = []
  const result = streamText({
    model: modelOf(),
    output: Output.object({ schema }),
    prompt: PROMPT,
    maxRetries: 0,
    onError: ({ error }) => void errors.push(error),
    ...extra,
  })
  const partials: unknown[] = []
  for await (const partial of result.partialOutputStream) partials.push(partial)
  const output: { value?: unknown; error?: unknown } = await result.output.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  )
  return { partials, errors, ...output }
}

beforeAll(async () => {
  fake = await new FakeOpenAI({ apiKey: KEY, models: [MODEL] }).start()
})
afterEach(() => fake.reset())
afterAll(() => fake?.stop())

describe('the fake OpenAI-compatible server, through the AI SDK', () => {
  it('answers generateText with Output.object: an object valid against the schema the request carried', async () => {
    const result = await ask()
    const output = schema.parse(result.output)
    expect(output.releases).toHaveLength(3)
    const words = new Set(PROMPT.toLowerCase().match(/\p{L}+/gu))
    const titleWords = output.goals.flatMap((g) => g.title.toLowerCase().split(' '))
    expect(titleWords.every((w) => words.has(w))).toBe(true)

    const [request] = fake.requests
    expect(request).toMatchObject({ method: 'POST', path: '/v1/chat/completions' })
    expect(request.headers.authorization).toBe(`Bearer ${KEY}`)
    expect(request.body.model).toBe(MODEL)
    expect(request.body.messages).toEqual([{ role: 'user', content: PROMPT }])
    expect(request.body.response_format).toMatchObject({
      type: 'json_schema',
      json_schema: { name: 'response', schema: { type: 'object', required: ['goals', 'releases'] } },
    })
    expect(request.body.response_format.json_schema.schema.properties.releases).toMatchObject({
      minItems: 3,
      maxItems: 3,
    })
  })

  it('gives the same answer to the same question', async () => {
    const a = await ask()
    const b = await ask()
    expect(b.output).toEqual(a.output)
  })

  it('streams with streamText: partial outputs arrive in pieces, then the whole object', async () => {
    const { partials, value } = await stream()
    expect(fake.chats[0]).toMatchObject({ stream: true, stream_options: { include_usage: true } })
    expect(partials.length).toBeGreaterThan(10)
    expect(partials[0]).toEqual({})
    expect(partials.at(-1)).toEqual(value)
    expect(schema.safeParse(value).success).toBe(true)
    // a title is seen growing: a prefix of it first, the whole later
    const firstTitle = (value as z.output<typeof schema>).goals[0].title
    const seen = partials
      .map((p: any) => p.goals?.[0]?.title)
      .filter((t): t is string => typeof t === 'string')
    expect(seen[0].length).toBeLessThan(firstTitle.length)
    expect(firstTitle.startsWith(seen[0])).toBe(true)
  })

  it('a request without a schema: APICallError with statusCode 400 saying so', async () => {
    const error = await generateText({ model: modelOf(), prompt: PROMPT, maxRetries: 0 }).catch(
      (e: unknown) => e,
    )
    expect(APICallError.isInstance(error)).toBe(true)
    expect(error).toMatchObject({ statusCode: 400, message: expect.stringContaining('json_schema') })
  })

  it('not JSON: NoObjectGeneratedError caused by a JSONParseError, with the text', async () => {
    fake.answerBadly('not-json')
    const error = await ask().catch((e: unknown) => e)
    expect(NoObjectGeneratedError.isInstance(error)).toBe(true)
    expect(JSONParseError.isInstance((error as NoObjectGeneratedError).cause)).toBe(true)
    expect((error as NoObjectGeneratedError).text).toMatch(/^I am sorry/)
  })

  it('JSON off the schema: NoObjectGeneratedError caused by a TypeValidationError', async () => {
    fake.answerBadly('off-schema')
    const error = await ask().catch((e: unknown) => e)
    expect(NoObjectGeneratedError.isInstance(error)).toBe(true)
    expect(TypeValidationError.isInstance((error as NoObjectGeneratedError).cause)).toBe(true)
  })

  it('bad JSON once, then good: the first call fails with NoObjectGeneratedError, the second succeeds', async () => {
    fake.answerBadly('not-json', 1)
    await expect(ask()).rejects.toSatisfy((e) => NoObjectGeneratedError.isInstance(e))
    await expect(ask()).resolves.toMatchObject({ output: { releases: expect.any(Array) } })
  })

  it('bad JSON always: every call fails with NoObjectGeneratedError', async () => {
    fake.answerBadly('off-schema')
    for (let i = 0; i < 3; i++)
      await expect(ask()).rejects.toSatisfy((e) => NoObjectGeneratedError.isInstance(e))
  })

  it('a streamed answer off the schema: partials, then the output rejects with NoObjectGeneratedError', async () => {
    fake.answerBadly('off-schema')
    const { partials, error } = await stream()
    expect(partials.length).toBeGreaterThan(0)
    expect(NoObjectGeneratedError.isInstance(error)).toBe(true)
  })

  it.each([401, 403, 500] as const)(
    '%i: APICallError with that statusCode and OpenAI’s message',
    async (status) => {
      fake.failWith(status)
      const error = await ask().catch((e: unknown) => e)
      expect(APICallError.isInstance(error)).toBe(true)
      expect((error as APICallError).statusCode).toBe(status)
      expect((error as APICallError).isRetryable).toBe(status === 500)
    },
  )

  it('500 once, then good: only the next call fails', async () => {
    fake.failWith(500, 1)
    await expect(ask()).rejects.toMatchObject({ statusCode: 500 })
    const result = await ask()
    expect(schema.safeParse(result.output).success).toBe(true)
    expect(fake.chats).toHaveLength(2)
  })

  it('401 while streaming: onError gets the APICallError; the output rejects with NoOutputGeneratedError', async () => {
    fake.failWith(401)
    const { partials, errors, error } = await stream()
    expect(partials).toEqual([])
    expect(APICallError.isInstance(errors[0])).toBe(true)
    expect((errors[0] as APICallError).statusCode).toBe(401)
    expect(NoOutputGeneratedError.isInstance(error)).toBe(true)
  })

  it('a wrong key: APICallError 401; no key at all: 401 too', async () => {
    const wrong = await generateText({
      model: modelOf({ apiKey: 'sk-other' }),
      output: Output.object({ schema }),
      prompt: PROMPT,
      maxRetries: 0,
    }).catch((e: unknown) => e)
    expect(wrong).toMatchObject({ statusCode: 401 })
    const none = await generateText({
      model: modelOf({ apiKey: undefined }),
      output: Output.object({ schema }),
      prompt: PROMPT,
      maxRetries: 0,
    }).catch((e: unknown) => e)
    expect(none).toMatchObject({ statusCode: 401 })
    expect(fake.requests.at(-1)!.headers.authorization).toBeUndefined()
  })

  it('an unknown model: APICallError 404 model_not_found (checked on every request)', async () => {
    const error = await generateText({
      model: modelOf({ model: 'gpt-nonexistent' }),
      output: Output.object({ schema }),
      prompt: PROMPT,
      maxRetries: 0,
    }).catch((e: unknown) => e)
    expect(APICallError.isInstance(error)).toBe(true)
    expect(error).toMatchObject({ statusCode: 404, message: expect.stringContaining('gpt-nonexistent') })
    await expect(ask()).resolves.toBeDefined()
  })

  it('slow before answering: the call’s timeout aborts it with a TimeoutError', async () => {
    fake.slow({ firstMs: 5_000 })
    const started = Date.now()
    const error = await ask({ timeout: 200 }).catch((e: unknown) => e)
    expect(error).toMatchObject({ name: 'TimeoutError' })
    expect(Date.now() - started).toBeLessThan(2_000)
  })

  it('slow between chunks: an abort signal’s timeout ends the stream after some partials', async () => {
    fake.slow({ chunkMs: 40 })
    const { partials, error } = await stream({ abortSignal: AbortSignal.timeout(400) })
    expect(partials.length).toBeGreaterThan(0)
    expect(error).toMatchObject({ name: 'TimeoutError' })
  })

  it('lists its models at GET /models', async () => {
    const response = await fetch(`${fake.url}/models`, { headers: { Authorization: `Bearer ${KEY}` } })
    expect(await response.json()).toMatchObject({ object: 'list', data: [{ id: MODEL, object: 'model' }] })
    expect((await fetch(`${fake.url}/models`)).status).toBe(401)
  })
})
