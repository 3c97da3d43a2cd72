import net from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client, signUp } from '../support/client'
import { startServer, type RunningServer } from '../support/server'

/** What the internet sends besides well-formed requests (issue #7, "Input"): raw HTTP over a socket. */
let server: RunningServer
beforeAll(async () => {
  server = await startServer()
})
afterAll(async () => {
  await server?.stop()
})

type RawAnswer = { status: number; head: string; body: string; closed: boolean }

function parse(raw: string, closed: boolean): RawAnswer {
  const end = raw.indexOf('\r\n\r\n')
  const head = end < 0 ? raw : raw.slice(0, end)
  let body = end < 0 ? '' : raw.slice(end + 4)
  if (/transfer-encoding: chunked/i.test(head)) body = body.replace(/^[0-9a-f]+\r\n|\r\n[0-9a-f]+\r\n/gi, '')
  return { status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(raw)?.[1] ?? 0), head, body, closed }
}

/** Sends raw bytes; `stream` keeps sending chunks of a chunked body until the server answers or hangs up. */
function rawRequest(text: string, stream?: { chunk: string }): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(server.port, '127.0.0.1')
    let received = ''
    let answered = false
    const finish = (closed: boolean) => {
      clearTimeout(timer)
      socket.destroy()
      resolve(parse(received, closed))
    }
    const timer = setTimeout(() => reject(new Error(`no answer; got ${received.slice(0, 200)}`)), 10_000)
    socket.on('data', (d) => {
      received += d
      answered = true
      if (/\r\n\r\n/.test(received) && !stream) {
        const length = /content-length: (\d+)/i.exec(received)?.[1]
        const body = received.slice(received.indexOf('\r\n\r\n') + 4)
        if ((length && body.length >= Number(length)) || /\r\n0\r\n\r\n$/.test(received)) finish(false)
      }
    })
    socket.on('end', () => finish(true))
    socket.on('error', () =>
      answered ? finish(true) : reject(new Error('connection reset before any answer')),
    )
    socket.write(text)
    if (stream) {
      const data = `${stream.chunk.length.toString(16)}\r\n${stream.chunk}\r\n`
      const pump = () => {
        while (!answered && !socket.destroyed) if (!socket.write(data)) return socket.once('drain', pump)
      }
      pump()
    }
  })
}

const head = (method: string, path: string, extra = '') =>
  `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n${extra}`

function expectJsonError(answer: RawAnswer, status: number) {
  expect(answer.status).toBe(status)
  expect(answer.head).toMatch(/content-type: application\/json/i)
  const body = JSON.parse(answer.body)
  expect(Object.keys(body).sort()).toEqual(['error', 'message'])
  expect(answer.body).not.toMatch(/<html|stack|at .*\(|select |insert /i)
}

describe('bodies over 1 MB', () => {
  it('are refused with 413 by their declared length, before any byte is read', async () => {
    const answer = await rawRequest(
      head('POST', '/v1/users/login', 'Content-Type: application/json\r\nContent-Length: 5000000\r\n\r\n'),
    )
    expectJsonError(answer, 413)
  })

  it('are refused with 413 when chunked without a length, and the endless sender is cut off', async () => {
    for (const path of ['/v1/users/signup', '/account/signup']) {
      const answer = await rawRequest(
        head('POST', path, 'Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n'),
        { chunk: 'x'.repeat(64 * 1024) },
      )
      expect([path, answer.status]).toEqual([path, 413])
      expect(answer.closed).toBe(true)
    }
  })

  it('a body just under 1 MB is read and answered normally', async () => {
    const res = await new Client(server.url).post('/v1/users/contact', {
      topic: 'general',
      sender: 'a@example.com',
      body: 'x'.repeat(1024 * 1024 - 100),
    })
    expect(res.status).toBe(400)
    expect(res.json.error).toBe('message_too_long')
  })
})

/**
 * Node's own fetch (undici) keeps writing a body while the answer comes in; when the server closed
 * the connection with part of the body unread, the reset made fetch fail with EPIPE instead of
 * reading the 413 (issue #20: two tries in five).
 */
describe('bodies over the limit sent by fetch', () => {
  const tries = 20
  const bodyOf = (bytes: number) =>
    Buffer.from(JSON.stringify({ topic: 'general', sender: 'a@example.com', body: 'x'.repeat(bytes) }))
  const inChunks = (bytes: Buffer) =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < bytes.length; at += 64 * 1024)
          controller.enqueue(bytes.subarray(at, at + 64 * 1024))
        controller.close()
      },
    })

  async function refusals(path: string, body: Buffer, chunked: boolean) {
    const answers: string[] = []
    for (let i = 0; i < tries; i++) {
      const init = chunked
        ? { body: inChunks(body), duplex: 'half' as const }
        : { body: new Uint8Array(body) }
      try {
        const res = await fetch(server.url + path, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          ...init,
        })
        answers.push(`${res.status} ${await res.text()}`)
      } catch (error) {
        const cause = (error as Error & { cause?: { code?: string; message?: string } }).cause
        answers.push(`no answer: ${cause?.code ?? cause?.message ?? (error as Error).message}`)
      }
    }
    return answers
  }

  const refusal = (mb: number) =>
    `413 ${JSON.stringify({ error: 'too_large', message: `The request body is larger than ${mb} MB.` })}`

  it('a 2 MB body with its length gets the 413 every time', async () => {
    expect(await refusals('/v1/users/contact', bodyOf(2 * 1024 * 1024), false)).toEqual(
      Array(tries).fill(refusal(1)),
    )
  })

  it('a 2 MB chunked body gets the 413 every time', async () => {
    expect(await refusals('/v1/users/contact', bodyOf(2 * 1024 * 1024), true)).toEqual(
      Array(tries).fill(refusal(1)),
    )
  })

  it('an 11 MB project import gets the 413 every time', async () => {
    expect(await refusals('/v1/projects/import', bodyOf(11 * 1024 * 1024), false)).toEqual(
      Array(tries).fill(refusal(10)),
    )
  })
})

describe('malformed requests', () => {
  it('under /v1 are answered in the JSON error shape, never 5xx or HTML', async () => {
    const cases: [string, number][] = [
      [head('TRACE', '/v1/users/login', '\r\n'), 405],
      [`GET /v1/account/app HTTP/1.1\r\nHost: exa mple\r\n\r\n`, 400],
      [head('GET', '/v1/projects/%E0%A4%A', '\r\n'), 400],
      [
        head('POST', '/v1/users/login.data', 'Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}'),
        404,
      ],
      [
        head('POST', '/V1/Users/Login.DATA', 'Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}'),
        404,
      ],
      [head('POST', '/v1/users/login', 'Content-Encoding: gzip\r\nContent-Length: 2\r\n\r\n{}'), 415],
      [head('GET', '/v1/account/app', 'Cookie: storymap_session=%E0%A4%A; other=\r\n\r\n'), 401],
      [head('GET', '/v1/projects', 'Cookie: storymap_session=x\r\nWorkspace: \u00ff\r\n\r\n'), 401],
    ]
    for (const [request, status] of cases) {
      const answer = await rawRequest(request)
      expect([request.split('\r\n')[0], answer.status]).toEqual([request.split('\r\n')[0], status])
      expectJsonError(answer, status)
    }
  })

  it('a page post that is not a form is a 400 page, not a 500', async () => {
    for (const type of ['application/json', 'text/plain']) {
      const res = await new Client(server.url).post('/account/login', '{"email":1}', { 'Content-Type': type })
      expect([type, res.status]).toEqual([type, 400])
    }
  })
})

describe('log-in timing', () => {
  it('takes as long for an unknown address as for a known one', async () => {
    const user = await signUp(server.url)
    const time = async (email: string) => {
      const started = performance.now()
      const res = await new Client(server.url).post('/v1/users/login', {
        email,
        password: 'not-the-password',
      })
      expect(res.status).toBe(401)
      return performance.now() - started
    }
    await time(`warmup${Date.now()}@example.com`)
    // The fastest of several tries is the cost itself, whatever else the machine is doing; a busy
    // machine gets up to three rounds. Without the dummy hash an unknown address answers in a few
    // ms against tens of ms for a known one (a ratio near 0.1), so no round would pass.
    const ratios: number[] = []
    for (let round = 0; round < 3; round++) {
      const known: number[] = []
      const unknown: number[] = []
      for (let i = 0; i < 10; i++) {
        known.push(await time(user.email))
        unknown.push(await time(`nobody${round}${i}${Date.now()}@example.com`))
      }
      ratios.push(Math.min(...unknown) / Math.min(...known))
      if (ratios.at(-1)! > 0.5 && ratios.at(-1)! < 2) break
    }
    expect(
      ratios.some((r) => r > 0.5 && r < 2),
      `ratios ${ratios.join(', ')}`,
    ).toBe(true)
  })
})

describe('public files', () => {
  it('are served with their type and cache time; a path without a file extension is never a file', async () => {
    const favicon = await fetch(`${server.url}/favicon.svg`)
    expect(favicon.status).toBe(200)
    expect(favicon.headers.get('content-type')).toContain('image/svg+xml')
    expect(favicon.headers.get('cache-control')).toBe('public, max-age=3600')
    const avatar = await fetch(`${server.url}/avatars/avatar00.svg`)
    expect(avatar.status).toBe(200)
    expect(await avatar.text()).toContain('<svg')
    // `avatars` is a folder of public files; without an extension the path is the app's: here a
    // workspace page, which sends a visitor to log in (the file server would redirect to `/avatars/`).
    const folder = await fetch(`${server.url}/avatars`, { redirect: 'manual' })
    expect(folder.status).toBe(302)
    expect(folder.headers.get('location')).toMatch(/^\/account\/login/)
    const missing = await fetch(`${server.url}/no-such-file.svg`, { redirect: 'manual' })
    expect(missing.headers.get('content-type') ?? '').not.toContain('image/svg+xml')
    expect(missing.status).toBe(302)
  })
})
