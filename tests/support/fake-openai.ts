import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { answerFromSchema, type JsonSchema } from './schema-answer'

/**
 * A local stand-in for an OpenAI-compatible chat API (OpenAI, Ollama's /v1, vLLM, LM Studio…),
 * reached by the real AI SDK through AI_BASE_URL (CONTRACT §16). `POST {base}/chat/completions`
 * answers as OpenAI does, whole or streamed (SSE `data:` chunks, then `data: [DONE]`), with a JSON
 * answer generated from the JSON schema the request carries in `response_format`: deterministic,
 * valid against that schema, its text made of the words of the last user message. A request
 * without a schema is refused with a 400 (the fake cannot answer it). `GET {base}/models` lists
 * the models. Every request is recorded (headers and body) so tests can assert what was sent.
 *
 * Failure switches: answers that are not JSON or that fail the schema (once, or always), a delay
 * before the answer and between chunks, 401/403/500 answers, and a per-request model check
 * (a request for a model not in `models` gets OpenAI's 404 `model_not_found`).
 */

export type FakeOpenAIRequest = {
  method: string
  path: string
  headers: Record<string, string>
  /** The body as sent (text), and parsed when it is JSON. */
  text: string
  body: any
}

export type BadAnswer = 'not-json' | 'off-schema'
type Switch<T> = { value: T; times: number }

/** OpenAI's error bodies for the statuses the switches can answer. */
type OpenAIError = { message: string; type: string; code: string | null; param?: string | null }
const ERRORS: Record<number, OpenAIError> = {
  401: { message: 'Incorrect API key provided.', type: 'invalid_request_error', code: 'invalid_api_key' },
  403: {
    message: 'You are not allowed to use this model.',
    type: 'invalid_request_error',
    code: 'forbidden',
  },
  429: {
    message: 'Rate limit reached. Please try again later.',
    type: 'requests',
    code: 'rate_limit_exceeded',
  },
  500: {
    message: 'The server had an error while processing your request.',
    type: 'server_error',
    code: null,
  },
}

/** What a bad answer says: prose instead of JSON, or JSON of another shape. */
const NOT_JSON = 'I am sorry, but I cannot help with that request right now.'
const OFF_SCHEMA = '{"answer":"Here is your map","items":[]}'

export class FakeOpenAI {
  readonly requests: FakeOpenAIRequest[] = []
  /** The API's base address, e.g. `http://127.0.0.1:41234/v1` (AI_BASE_URL). */
  url = ''
  /** The models it serves; a request for another one gets 404 `model_not_found`. */
  models: string[]
  /** When set, a request without `Authorization: Bearer <apiKey>` gets 401. */
  apiKey: string | undefined
  private server!: Server
  private status: Switch<number> | null = null
  private bad: Switch<BadAnswer> | null = null
  private delay = { firstMs: 0, chunkMs: 0 }
  private readonly timers = new Set<NodeJS.Timeout>()

  constructor(
    options: { models?: string[]; apiKey?: string; base?: string } = {},
    private readonly base = options.base ?? '/v1',
  ) {
    this.models = options.models ?? ['storymap-test-model']
    this.apiKey = options.apiKey
  }

  /** Listens on loopback, on `port` (0: any free port). */
  async start(port = 0) {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((error: Error) => {
        if (!res.headersSent)
          this.error(res, 500, { message: error.message, type: 'server_error', code: null })
        else res.destroy()
      })
    })
    await new Promise<void>((resolve) => this.server.listen(port, '127.0.0.1', resolve))
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${this.base}`
    return this
  }

  async stop() {
    for (const timer of this.timers) clearTimeout(timer)
    this.server.closeAllConnections()
    await new Promise<void>((resolve) => this.server.close(() => resolve()))
  }

  // ---- switches

  /** The next `times` chat requests (default: all) are answered with this status and OpenAI's error body. */
  failWith(status: 401 | 403 | 429 | 500, times = Infinity) {
    this.status = { value: status, times }
  }

  /** The next `times` chat answers (default: all) are prose, or JSON that fails the request's schema. */
  answerBadly(kind: BadAnswer, times = Infinity) {
    this.bad = { value: kind, times }
  }

  /** Waits `firstMs` before answering (headers included) and `chunkMs` between streamed chunks. */
  slow(delay: { firstMs?: number; chunkMs?: number }) {
    this.delay = { firstMs: delay.firstMs ?? 0, chunkMs: delay.chunkMs ?? 0 }
  }

  /** Back to good, fast answers; the recorded requests are kept unless `forget`. */
  reset({ forget = true } = {}) {
    this.status = null
    this.bad = null
    this.delay = { firstMs: 0, chunkMs: 0 }
    if (forget) this.requests.length = 0
  }

  /** The recorded chat completion requests' bodies. */
  get chats(): any[] {
    return this.requests.filter((r) => r.path === `${this.base}/chat/completions`).map((r) => r.body)
  }

  // ---- the API

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const text = await readText(req)
    const path = (req.url ?? '/').split('?')[0]
    let body: any = undefined
    try {
      body = text ? JSON.parse(text) : undefined
    } catch {
      // recorded as text; answered below
    }
    this.requests.push({ method: req.method ?? 'GET', path, headers: headersOf(req), text, body })

    if (this.apiKey !== undefined && req.headers.authorization !== `Bearer ${this.apiKey}`)
      return this.error(res, 401)
    if (req.method === 'GET' && path === `${this.base}/models`) {
      return this.json(res, 200, {
        object: 'list',
        data: this.models.map((id) => ({
          id,
          object: 'model',
          created: 1_700_000_000,
          owned_by: 'storymap-fake',
        })),
      })
    }
    if (req.method !== 'POST' || path !== `${this.base}/chat/completions`) {
      return this.error(res, 404, {
        message: `Unknown path ${path}.`,
        type: 'invalid_request_error',
        code: null,
      })
    }
    if (body === undefined) {
      return this.error(res, 400, {
        message: 'The body is not valid JSON.',
        type: 'invalid_request_error',
        code: null,
      })
    }
    const status = this.use(this.status)
    if (status !== null) {
      await this.wait(res, this.delay.firstMs)
      return this.error(res, status)
    }
    if (!this.models.includes(body.model)) {
      return this.error(res, 404, {
        message: `The model \`${String(body.model)}\` does not exist or you do not have access to it.`,
        type: 'invalid_request_error',
        code: 'model_not_found',
        param: 'model',
      })
    }
    const schema: JsonSchema | undefined = body.response_format?.json_schema?.schema
    if (body.response_format?.type !== 'json_schema' || !schema || typeof schema !== 'object') {
      return this.error(res, 400, {
        message: "This server answers only requests with response_format of type 'json_schema' and a schema.",
        type: 'invalid_request_error',
        code: null,
        param: 'response_format',
      })
    }
    const bad = this.use(this.bad)
    const content =
      bad === 'not-json'
        ? NOT_JSON
        : bad === 'off-schema'
          ? OFF_SCHEMA
          : JSON.stringify(await answerFromSchema(schema, lastUserText(body.messages)))
    if (!(await this.wait(res, this.delay.firstMs))) return
    const usage = {
      prompt_tokens: Math.ceil(text.length / 4),
      completion_tokens: Math.ceil(content.length / 4),
    }
    const answer = {
      id: `chatcmpl-${this.requests.length}`,
      created: Math.floor(Date.now() / 1000),
      model: body.model,
    }
    if (body.stream === true)
      return this.stream(res, answer, content, usage, body.stream_options?.include_usage === true)
    this.json(res, 200, {
      ...answer,
      object: 'chat.completion',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content, refusal: null },
          finish_reason: 'stop',
          logprobs: null,
        },
      ],
      usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
    })
  }

  /** The answer in small pieces, as OpenAI streams it. */
  private async stream(
    res: ServerResponse,
    answer: { id: string; created: number; model: string },
    content: string,
    usage: { prompt_tokens: number; completion_tokens: number },
    includeUsage: boolean,
  ) {
    res.writeHead(200, {
      'Content-Type': 'text/event-stream',
      'Cache-Control': 'no-cache',
      Connection: 'keep-alive',
    })
    const chunk = (choices: unknown[], extra: object = {}) =>
      `data: ${JSON.stringify({ ...answer, object: 'chat.completion.chunk', choices, ...extra })}\n\n`
    res.write(chunk([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }]))
    for (const piece of pieces(content)) {
      if (!(await this.wait(res, this.delay.chunkMs))) return
      res.write(chunk([{ index: 0, delta: { content: piece }, finish_reason: null }]))
    }
    res.write(chunk([{ index: 0, delta: {}, finish_reason: 'stop' }]))
    if (includeUsage) {
      res.write(
        chunk([], { usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } }),
      )
    }
    res.end('data: [DONE]\n\n')
  }

  /** Waits unless the client has gone; false when it has (nothing more is written). */
  private wait(res: ServerResponse, ms: number): Promise<boolean> {
    if (ms <= 0) return Promise.resolve(!res.destroyed)
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer)
        this.timers.delete(timer)
        res.off('close', gone)
        resolve(!res.destroyed)
      }
      const gone = () => done()
      const timer = setTimeout(done, ms)
      this.timers.add(timer)
      res.once('close', gone)
    })
  }

  /** Uses up one turn of a switch; null when it is off. */
  private use<T>(slot: Switch<T> | null): T | null {
    if (!slot || slot.times <= 0) return null
    slot.times--
    return slot.value
  }

  private json(res: ServerResponse, status: number, value: unknown) {
    if (res.destroyed) return
    res.writeHead(status, { 'Content-Type': 'application/json' })
    res.end(JSON.stringify(value))
  }

  private error(res: ServerResponse, status: number, error: OpenAIError = ERRORS[status]) {
    this.json(res, status, { error: { param: null, ...error } })
  }
}

function readText(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = []
    req.on('data', (part: Buffer) => parts.push(part))
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')))
    req.on('error', reject)
  })
}

function headersOf(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value
  }
  return headers
}

/** The text of the last user message (a string, or the text parts of a list). */
function lastUserText(messages: unknown): string {
  if (!Array.isArray(messages)) return ''
  const last = [...messages].reverse().find((m) => m?.role === 'user')
  if (!last) return ''
  if (typeof last.content === 'string') return last.content
  if (Array.isArray(last.content)) {
    return last.content
      .filter((p: any) => p?.type === 'text')
      .map((p: any) => String(p.text))
      .join('\n')
  }
  return ''
}

/**
 * The answer cut into pieces of varying size (1–12 characters, more for a long answer: about 300
 * pieces at most), so each JSON value arrives over several chunks.
 */
function pieces(content: string): string[] {
  const base = Math.ceil(content.length / 300)
  const out: string[] = []
  for (let i = 0, n = 1; i < content.length; i += base + n - 1, n = (n % 12) + 1)
    out.push(content.slice(i, i + base + n - 1))
  return out
}
