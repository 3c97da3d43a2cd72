import fs from 'node:fs'
import path from 'node:path'
import http from 'node:http'
import zlib from 'node:zlib'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { makeBoard } from '../support/board'
import { signUp } from '../support/client'
import { startServer, type RunningServer } from '../support/server'

/** The project bundle goes out compressed once per map version, as the client's Accept-Encoding allows. */
let server: RunningServer
beforeAll(async () => {
  server = await startServer()
})
afterAll(async () => {
  await server?.stop()
})

function raw(path: string, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>(
    (resolve, reject) => {
      http
        .get(server.url + path, { headers }, (res) => {
          const chunks: Buffer[] = []
          res.on('data', (c) => chunks.push(c))
          res.on('end', () =>
            resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }),
          )
        })
        .on('error', reject)
    },
  )
}

it('sends the bundle as brotli or gzip bytes made once per version, plain when not asked, with Vary', async () => {
  const owner = await signUp(server.url)
  const ids = await makeBoard(owner.client)
  const headers = { Cookie: owner.client.cookieHeader(), Workspace: owner.workspaceId }
  const path = `/v1/projects/${ids.project}`
  const plain = await raw(path, headers)
  expect(plain.headers['content-encoding']).toBeUndefined()
  expect(plain.headers.vary).toMatch(/Accept-Encoding/)
  expect(JSON.parse(plain.body.toString()).project.id).toBe(ids.project)

  // As Chromium asks: brotli, decoded to the same JSON; the same bytes again on the next read.
  const br = await raw(path, { ...headers, 'Accept-Encoding': 'gzip, deflate, br, zstd' })
  expect(br.headers['content-encoding']).toBe('br')
  expect(br.headers.vary).toMatch(/Accept-Encoding/)
  expect(Number(br.headers['content-length'])).toBe(br.body.length)
  expect(zlib.brotliDecompressSync(br.body).equals(plain.body)).toBe(true)
  expect((await raw(path, { ...headers, 'Accept-Encoding': 'br' })).body.equals(br.body)).toBe(true)

  const gz = await raw(path, { ...headers, 'Accept-Encoding': 'gzip' })
  expect(gz.headers['content-encoding']).toBe('gzip')
  expect(zlib.gunzipSync(gz.body).equals(plain.body)).toBe(true)
  expect(
    (await raw(path, { ...headers, 'Accept-Encoding': 'br;q=0, gzip' })).headers['content-encoding'],
  ).toBe('gzip')

  // A write makes a new version, and new bytes.
  await owner.client.post(`/v1/features/${ids.feature}/rename`, { title: 'Changed' })
  const after = await raw(path, { ...headers, 'Accept-Encoding': 'br' })
  expect(JSON.parse(zlib.brotliDecompressSync(after.body).toString()).features[0].title).toBe('Changed')

  // The share link too.
  const key = JSON.parse(plain.body.toString()).project.externalLink
  const link = await raw(`/v1/link/${key}`, { 'Accept-Encoding': 'gzip, br' })
  expect(link.headers['content-encoding']).toBe('br')
  expect(JSON.parse(zlib.brotliDecompressSync(link.body).toString()).features[0].title).toBe('Changed')
})

it('compresses pages where they are rendered (the page thread), as the browser accepts, whole and with their length', async () => {
  const page = await raw('/account/login', { 'Accept-Encoding': 'gzip, deflate, br' })
  expect(page.headers['content-encoding']).toBe('br')
  expect(page.headers.vary).toMatch(/Accept-Encoding/)
  expect(Number(page.headers['content-length'])).toBe(page.body.length)
  const html = zlib.brotliDecompressSync(page.body).toString()
  expect(html).toContain('<html')

  const gz = await raw('/account/login', { 'Accept-Encoding': 'br;q=0, gzip' })
  expect(gz.headers['content-encoding']).toBe('gzip')
  expect(zlib.gunzipSync(gz.body).toString()).toContain('<html')
  const plain = await raw('/account/login', { 'Accept-Encoding': 'identity' })
  expect(plain.headers['content-encoding']).toBeUndefined()
  expect(Number(plain.headers['content-length'])).toBe(plain.body.length)
  // The same page each way, but for its nonce.
  const withoutNonce = (text: string) =>
    text.replace(/nonce="[^"]+"/g, 'nonce=""').replace(/"nonce":"[^"]+"/g, '')
  expect(withoutNonce(plain.body.toString())).toBe(withoutNonce(html))
})

it('sends a board page whose scripts stay within the 180 KB (gzip) budget and whose map is carried once, unescaped', async () => {
  const owner = await signUp(server.url)
  const ids = await makeBoard(owner.client)
  const page = await raw(`/${owner.workspaceName}/projects/${ids.project}`, {
    Cookie: owner.client.cookieHeader(),
  })
  expect(page.status).toBe(200)
  const html = page.body.toString()
  const scripts = [...html.matchAll(/<link rel="modulepreload" href="([^"]+)"/g)].map((m) => m[1])
  expect(scripts.length).toBeGreaterThan(5)
  const gzipBytes = scripts.reduce(
    (sum, href) => sum + zlib.gzipSync(fs.readFileSync(path.join('build/client', href))).length,
    0,
  )
  // The budget of docs/benchmarks.md; the GitHub texts once pulled zod (25 KB) in through a schema file.
  expect(gzipBytes / 1024).toBeLessThanOrEqual(180)
  // The map is the page's own element (bundle-text.ts), not a string in the router's data.
  expect(html.split(`"id":"${ids.feature}"`)).toHaveLength(2)
  expect(html).not.toContain(`'id':'${ids.feature}'`)
  expect(html.split('\\\\\\"').length - 1).toBeLessThan(20)
})

/** The page's own copy of the map: the `<script type="application/json">` a whole page carries. */
function pageMapOf(html: string) {
  const found = html.match(/<script type="application\/json" id="page-map" nonce="[^"]+">([^<]*)<\/script>/)
  expect(found, 'the page carries its map').not.toBeNull()
  return JSON.parse(found![1])
}

it('carries the map in a whole page once, as the API has it, whatever its titles hold; the data of an open page carries it itself', async () => {
  const owner = await signUp(server.url)
  const ids = await makeBoard(owner.client)
  const title = '</script><script>alert(1)</script><!-- "quoted" it\'s \\ ünï'
  expect((await owner.client.post(`/v1/features/${ids.feature}/rename`, { title })).status).toBe(200)
  const board = `/${owner.workspaceName}/projects/${ids.project}`
  const html = (await owner.client.get(board)).text
  const map = pageMapOf(html)
  expect(map).toEqual((await owner.client.get(`/v1/projects/${ids.project}`)).json)
  expect(map.features.find((f: { id: string }) => f.id === ids.feature).title).toBe(title)
  expect(html).not.toContain('<script>alert(1)')
  // The router's data in the page leaves the map out; the data of the page already open carries it.
  expect(html).toContain('\\"bundleText\\",')
  const data = await owner.client.get(`${board}.data`)
  expect(data.status).toBe(200)
  expect(data.text).toContain(`'id':'${ids.feature}'`)
  expect(data.text).not.toContain('page-map')
  // The public link's page carries its map the same way.
  const shared = await owner.client.post(`/v1/projects/${ids.project}/sharing`, { enabled: true })
  expect(shared.status, shared.text).toBe(200)
  const link = shared.json.externalLink
  const anonymous = await fetch(`${server.url}/link/${link}`)
  expect(pageMapOf(await anonymous.text()).features[0].title).toBe(title)
})
