import { afterAll, beforeAll, expect, it } from 'vitest'
import { bundle, makeBoard, writeCalls, type Call } from '../support/board'
import { signUp, type Client } from '../support/client'
import { startServer, type RunningServer } from '../support/server'

let server: RunningServer
let c: Client
let ids: Awaited<ReturnType<typeof makeBoard>>
beforeAll(async () => {
  server = await startServer()
  c = (await signUp(server.url)).client
  ids = await makeBoard(c)
})
afterAll(async () => {
  await server?.stop()
})

/** Never a 5xx, never HTML: always a JSON body, with an error code when refused. */
async function expectJsonAnswer(call: Call, body: unknown, what: string) {
  const res = await c.request(call.method, call.path, body)
  const label = `${call.name} ${what}`
  expect([label, res.status < 500]).toEqual([label, true])
  expect([label, res.headers.get('content-type')]).toEqual([
    label,
    expect.stringContaining('application/json'),
  ])
  if (res.status !== 200)
    expect([label, typeof res.json?.error, typeof res.json?.message]).toEqual([label, 'string', 'string'])
  return res
}

// Refused calls only: deletes would empty the board and hide later checks.
const calls = () => writeCalls(ids).filter((call) => call.method !== 'DELETE')

it('malformed JSON and non-object bodies are 400 JSON on every route with a body', async () => {
  for (const call of calls().filter((x) => x.body !== undefined)) {
    for (const raw of ['{"title":', '[]', 'null', '"text"', '123', 'true', '{"a":1}garbage']) {
      const res = await expectJsonAnswer(call, raw, `raw ${raw}`)
      expect([call.name, raw, res.status]).toEqual([call.name, raw, 400])
    }
  }
})

it('wrong types, oversize strings and non-UUID body ids are 400 JSON', async () => {
  for (const call of calls().filter((x) => x.body !== undefined)) {
    const body = call.body as Record<string, unknown>
    for (const field of Object.keys(body)) {
      const bads: unknown[] = [{}, [], null, 'x'.repeat(20_000)]
      if (typeof body[field] !== 'boolean') bads.push(true)
      if (typeof body[field] === 'string') bads.push(12345)
      if (field === 'estimate') bads.push(12345, -1, 1.5)
      if (field === 'index') bads.push(-1, 1.5)
      if (/Id$/.test(field)) bads.push('not-a-uuid', '')
      for (const bad of bads) {
        const res = await expectJsonAnswer(
          call,
          { ...body, [field]: bad },
          `${field}=${JSON.stringify(bad).slice(0, 20)}`,
        )
        expect([call.name, field, res.status]).toEqual([call.name, field, 400])
      }
    }
  }
})

it('non-UUID ids in the path are 400 JSON on every route', async () => {
  const uuidPattern = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/
  const all = writeCalls(ids).filter((x) => uuidPattern.test(x.path))
  all.push({ name: 'project read', method: 'GET' as never, path: `/v1/projects/${ids.project}` })
  for (const call of all) {
    for (const bad of [
      'not-a-uuid',
      '123',
      'zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz',
      "1'%20or%201=1",
      'x'.repeat(300),
    ]) {
      const res = await expectJsonAnswer(
        { ...call, path: call.path.replace(uuidPattern, bad) },
        call.body,
        `path ${bad.slice(0, 12)}`,
      )
      expect([call.name, bad, res.status]).toEqual([call.name, bad, 400])
      expect(res.json.error).toBe('id_invalid')
    }
  }
})

it('unknown routes under /v1 answer 404 JSON', async () => {
  for (const path of ['/v1/gizmos/x', '/v1/gizmos/x/y', '/v1/features', '/v1/projects/x/y/z']) {
    for (const method of ['GET', 'POST', 'DELETE']) {
      const res = await c.request(method, path, method === 'GET' ? undefined : {})
      expect([path, method, res.status < 500]).toEqual([path, method, true])
      expect(res.headers.get('content-type')).toContain('application/json')
    }
  }
})

it('the board is intact after all of it', async () => {
  const b = await bundle(c, ids.project)
  expect(b.project.title).toBe('Map')
  expect(b.features).toHaveLength(1)
  expect(b.features[0]).toMatchObject({ title: 'Feature', estimate: 0 })
})
