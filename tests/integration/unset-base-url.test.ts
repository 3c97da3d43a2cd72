import { afterAll, beforeAll, expect, it } from 'vitest'
import { Client, signUp } from '../support/client'
import { startServer, type RunningServer } from '../support/server'
import { warningsSince } from '../support/server-log'

/**
 * Issue 43: a server that others can reach, started without BASE_URL, says so once at start, and
 * a proxy in front of it (Origin: the public address) is refused with a line that says what to do.
 * Loopback without BASE_URL (rate-limits.test.ts) and a set BASE_URL (behind-proxy.test.ts) give
 * no start warning.
 */
let server: RunningServer
beforeAll(async () => {
  server = await startServer({ HOST: '0.0.0.0' })
})
afterAll(async () => {
  await server?.stop()
})

const DEFAULT_BASE_URL = 'http://localhost:0' // PORT=0 in tests: the default BASE_URL follows it

it('warns once at start that links will say localhost', async () => {
  expect(await warningsSince(server)).toEqual([
    `BASE_URL is not set and the server listens on 0.0.0.0: links in e-mails and the share link say ${DEFAULT_BASE_URL}; set BASE_URL to the address users open`,
  ])
})

it('refuses a write from the public address it was not told about, and the log says how to fix it', async () => {
  const user = await signUp(server.url)
  const mark = server.output().length
  const login = await new Client(server.url).post(
    '/v1/users/login',
    { email: user.email, password: user.password },
    { Origin: 'https://maps.acme.io' },
  )
  expect(login.status).toBe(403)
  expect(login.json.error).toBe('cross_origin')
  expect(await warningsSince(server, mark)).toEqual([
    `Origin https://maps.acme.io does not match BASE_URL ${DEFAULT_BASE_URL}: set BASE_URL to the address users open`,
  ])
})
