import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client } from '../support/client'
import { LiveStream } from '../support/live'
import { startServer, type RunningServer } from '../support/server'

/**
 * Issue 43: the README's nginx and Caddy blocks ("Behind a reverse proxy"), taken from README.md
 * as written, run by Debian's nginx and caddy (scripts/ensure-proxies.sh installs them) as this
 * user, on loopback, in front of the built server. Only what the README tells a self-hoster to
 * replace is replaced: the host name `maps.example.com`, the public port (nginx's `listen 80`) and
 * the app's port `3000`. Each proxy in turn serves the one public address, BASE_URL; through it a
 * browser logs in with the page's form, makes a change, and sees the change's live event.
 */
const README = fs.readFileSync(new URL('../../README.md', import.meta.url), 'utf8')

/** The one fenced block of `language` in the README's "Behind a reverse proxy" section. */
function readmeBlock(language: string): string {
  const start = README.indexOf('### Behind a reverse proxy\n')
  expect(start).toBeGreaterThan(0)
  const end = README.indexOf('\n## ', start)
  const section = README.slice(start, end)
  const blocks = [...section.matchAll(new RegExp('^```' + language + '\\n([\\s\\S]*?)^```$', 'gm'))]
  expect(blocks).toHaveLength(1)
  return blocks[0][1]
}

/** Replaces `from` in a README block, which must be there (else the README changed and so must the test). */
function substitute(block: string, from: string, to: string): string {
  expect(block).toContain(from)
  return block.split(from).join(to)
}

/** Debian's binary; scripts/ensure-proxies.sh (run by npm test) installs it. */
function binary(name: string): string {
  const found = ['/usr/sbin', '/usr/bin', ...(process.env.PATH ?? '').split(':')]
    .map((dir) => path.join(dir, name))
    .find((file) => fs.existsSync(file))
  if (!found) throw new Error(`No ${name} found: run scripts/ensure-proxies.sh (apt-get install nginx caddy)`)
  return found
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer()
    probe.on('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo
      probe.close(() => resolve(port))
    })
  })
}

type Proxy = { process: ChildProcess; output: () => string; stop: () => Promise<void> }

/** Starts a proxy process and waits until the app answers through it. */
async function startProxy(command: string, args: string[], env: Record<string, string>): Promise<Proxy> {
  let log = ''
  const child = spawn(command, args, {
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  child.stdout!.on('data', (d) => (log += d))
  child.stderr!.on('data', (d) => (log += d))
  const exited = new Promise<never>((_, reject) => {
    child.once('error', (error) => reject(new Error(`${command} did not start: ${error.message}`)))
    child.once('exit', (code) => reject(new Error(`${command} exited with ${code}:\n${log}`)))
  })
  exited.catch(() => undefined)
  const deadline = Date.now() + 15_000
  for (;;) {
    const up = await Promise.race([
      fetch(`${PUBLIC}/healthz`).then(
        (res) => res.status === 200,
        () => false,
      ),
      exited,
    ])
    if (up) break
    if (Date.now() > deadline) throw new Error(`${command} did not pass requests on:\n${log}`)
    await Promise.race([new Promise((resolve) => setTimeout(resolve, 100)), exited])
  }
  return {
    process: child,
    output: () => log,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
      }),
  }
}

/** A browser on the public address: every write carries the page's Origin. */
class Browser extends Client {
  request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    return super.request(method, path, body, method === 'GET' ? headers : { Origin: PUBLIC, ...headers })
  }
}

let PUBLIC = ''
let publicPort = 0
let server: RunningServer
let dir = ''
beforeAll(async () => {
  publicPort = await freePort()
  PUBLIC = `http://127.0.0.1:${publicPort}`
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'storymap-proxies-'))
  server = await startServer({ BASE_URL: PUBLIC })
})
afterAll(async () => {
  await server?.stop()
  if (dir) fs.rmSync(dir, { recursive: true, force: true })
})

let counter = 0
/** Sign-up, log-in with the page's form (as without JavaScript, and as the router sends it), a change and its live event, all through the proxy. */
async function browserJourney() {
  const tag = `${Date.now().toString(36)}${++counter}`
  const account = {
    workspaceName: `proxy${tag}`,
    name: 'Proxy User',
    email: `proxy${tag}@example.com`,
    password: 'correct-horse',
  }
  expect((await new Browser(PUBLIC).post('/v1/users/signup', account)).status).toBe(200)
  const credentials = new URLSearchParams({ email: account.email, password: account.password })

  const browser = new Browser(PUBLIC)
  expect((await browser.get('/account/login')).status).toBe(200)
  const loggedIn = await browser.post('/account/login', credentials)
  expect([loggedIn.status, loggedIn.text]).toEqual([302, ''])
  expect(browser.cookies.get('storymap_session')).toBeTruthy()
  // The request the issue saw answer 400: the same form sent by the router in the page.
  const withScript = new Browser(PUBLIC)
  const fetched = await withScript.post('/account/login.data', credentials)
  expect(fetched.status).toBe(202)
  expect(withScript.cookies.get('storymap_session')).toBeTruthy()

  const app = await browser.get('/v1/account/app')
  browser.workspaceId = app.json.workspaces.find((w: { name: string }) => w.name === account.workspaceName).id
  const project = crypto.randomUUID()
  expect((await browser.post(`/v1/projects/${project}`, { title: 'Before' })).status).toBe(200)

  const stream = await LiveStream.open(PUBLIC, `/v1/projects/${project}/events`, { client: browser })
  try {
    expect(stream.status).toBe(200)
    expect(stream.headers?.get('content-type')).toMatch(/^text\/event-stream/)
    await stream.next('ready')
    const sent = Date.now()
    expect((await browser.post(`/v1/projects/${project}/rename`, { title: 'Seen live' })).status).toBe(200)
    const change = await stream.next('change', 3000)
    const arrivedMs = Date.now() - sent
    expect(change.data.changes).toContainEqual(
      expect.objectContaining({
        op: 'upsert',
        kind: 'project',
        entity: expect.objectContaining({ title: 'Seen live' }),
      }),
    )
    // A buffered stream would hold the event back until the buffer fills or the stream ends.
    expect(arrivedMs).toBeLessThan(3000)
  } finally {
    stream.close()
  }
}

describe('the README nginx block', () => {
  let nginx: Proxy | undefined
  afterAll(async () => {
    await nginx?.stop()
  })

  it('passes log-in, writes and live events on, with its buffering on', async () => {
    let block = readmeBlock('nginx')
    expect(block).not.toMatch(/proxy_buffering\s+off/)
    block = substitute(block, 'listen 80;', `listen 127.0.0.1:${publicPort};`)
    block = substitute(block, 'maps.example.com', '127.0.0.1')
    block = substitute(block, '127.0.0.1:3000', `127.0.0.1:${server.port}`)
    const home = fs.mkdtempSync(path.join(dir, 'nginx-'))
    // Debian's /etc/nginx/nginx.conf, cut to what the block needs and moved into a folder of this
    // user's: one process (no worker switching to another user), no daemon, its own temp folders.
    const config = `daemon off;
master_process off;
pid ${home}/nginx.pid;
error_log stderr warn;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path ${home}/client_body;
  proxy_temp_path ${home}/proxy;
  fastcgi_temp_path ${home}/fastcgi;
  uwsgi_temp_path ${home}/uwsgi;
  scgi_temp_path ${home}/scgi;
${block}
}
`
    fs.writeFileSync(path.join(home, 'nginx.conf'), config)
    nginx = await startProxy(
      binary('nginx'),
      ['-p', home, '-e', 'stderr', '-c', path.join(home, 'nginx.conf')],
      {},
    )
    await browserJourney()
  })
})

describe('the README Caddyfile', () => {
  let caddy: Proxy | undefined
  afterAll(async () => {
    await caddy?.stop()
  })

  it('passes log-in, writes and live events on', async () => {
    let block = readmeBlock('caddyfile')
    // The README's way to serve without TLS on another port: the address with its scheme and port.
    block = substitute(block, 'maps.example.com', PUBLIC)
    block = substitute(block, '127.0.0.1:3000', `127.0.0.1:${server.port}`)
    const home = fs.mkdtempSync(path.join(dir, 'caddy-'))
    // Global options of the test's own: no admin endpoint, loopback only; Caddy's files in the temp folder.
    const caddyfile = `{\n\tadmin off\n\tdefault_bind 127.0.0.1\n}\n\n${block}`
    fs.writeFileSync(path.join(home, 'Caddyfile'), caddyfile)
    caddy = await startProxy(
      binary('caddy'),
      ['run', '--config', path.join(home, 'Caddyfile'), '--adapter', 'caddyfile'],
      {
        HOME: home,
        XDG_DATA_HOME: path.join(home, 'data'),
        XDG_CONFIG_HOME: path.join(home, 'config'),
      },
    )
    await browserJourney()
  })
})
