import { stringify } from 'csv-stringify/sync'
import os from 'node:os'
import path from 'node:path'
import type { ServerBuild } from 'react-router'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { pageRouteMatcher } from '../../server/page-routes'
import { isMapRead } from '../../server/page-workers'
import { signUp } from '../support/client'
import { startServer, threadNiceness, type RunningServer } from '../support/server'

/**
 * Pages are rendered on a worker thread (issue 34, ADR 29): while a big board's page is made,
 * the main thread goes on answering everyone else. PAGE_THREADS=0 renders on the main thread.
 */
let server: RunningServer
let mainOnly: RunningServer
beforeAll(async () => {
  ;[server, mainOnly] = await Promise.all([startServer(), startServer({ PAGE_THREADS: '0' })])
})
afterAll(async () => {
  await Promise.all([server?.stop(), mainOnly?.stop()])
})

const FEATURES = 4_000

function bigMapCsv() {
  const rows = Array.from({ length: FEATURES }, (_, i) => ({
    release_title: `Release ${Math.floor(i / 400) + 1}`,
    goal_title: `Goal ${(i % 10) + 1}`,
    activity_title: `Activity ${(i % 10) + 1}.${(Math.floor(i / 10) % 4) + 1}`,
    feature_title: `As a shopper I can do task number ${i + 1} of the big map`,
  }))
  return stringify(rows, { header: true })
}

async function bigBoard(target: RunningServer) {
  const owner = await signUp(target.url)
  const imported = await owner.client.post('/v1/projects/import?title=Big', bigMapCsv(), {
    'Content-Type': 'text/csv',
  })
  expect(imported.status, imported.text).toBe(200)
  return { owner, boardPath: `/${owner.workspaceName}/projects/${imported.json.project.id}` }
}

type Probed = { page: { status: number; text: string }; pageMs: number; longestProbe: number }

/** Loads the page while asking /healthz over and over: the page's time, and the longest wait for /healthz meanwhile. */
async function loadWhileProbing(
  target: RunningServer,
  load: () => Promise<{ status: number; text: string }>,
): Promise<Probed> {
  const started = performance.now()
  let done = false
  const page = load().finally(() => (done = true))
  let longestProbe = 0
  while (!done) {
    const probeStarted = performance.now()
    expect((await fetch(`${target.url}/healthz`)).status).toBe(200)
    longestProbe = Math.max(longestProbe, performance.now() - probeStarted)
  }
  return { page: await page, pageMs: performance.now() - started, longestProbe }
}

it('goes on answering while a 4,000-card board page is being made; the page is the one the main thread makes', async () => {
  const [onWorker, onMain] = await Promise.all([bigBoard(server), bigBoard(mainOnly)])
  const tiles = (html: string) => html.split('class="card-tile').length - 1

  const load = (board: typeof onWorker) => () => board.owner.client.get(board.boardPath)
  await Promise.all([load(onWorker)(), load(onMain)()]) // each server's first load reads the map
  // Three loads on each, turn about; the middle one's share compared (one slow probe is noise).
  const runs: { worker: Probed; main: Probed }[] = []
  for (let i = 0; i < 3; i++)
    runs.push({
      worker: await loadWhileProbing(server, load(onWorker)),
      main: await loadWhileProbing(mainOnly, load(onMain)),
    })
  const middle = (side: 'worker' | 'main') =>
    runs.map((run) => run[side]).sort((a, b) => a.longestProbe / a.pageMs - b.longestProbe / b.pageMs)[1]
  const [worker, main] = [middle('worker'), middle('main')]
  for (const { page } of [worker, main]) {
    expect(page.status).toBe(200)
    expect(page.text).toContain('As a shopper I can do task number 4000 of the big map')
  }
  expect(tiles(worker.page.text)).toBeGreaterThan(FEATURES)
  expect(tiles(worker.page.text)).toBe(tiles(main.page.text))
  // On the main thread a probe that arrives during the render waits for all of it (about a third
  // of the page's time here); beside the worker it waits for nothing much.
  expect(worker.longestProbe / worker.pageMs).toBeLessThan(main.longestProbe / main.pageMs / 2)
}, 120_000)

it("makes a 4,000-card map's JSON (GET /v1/projects/{id}) on the worker too: the same answer, the main thread free meanwhile", async () => {
  const [onWorker, onMain] = await Promise.all([bigBoard(server), bigBoard(mainOnly)])
  const jsonOf = (board: typeof onWorker) => () =>
    board.owner.client.get(`/v1/projects/${board.boardPath.split('/').at(-1)}`, {
      'Accept-Encoding': 'identity',
    })
  await Promise.all([jsonOf(onWorker)(), jsonOf(onMain)()])
  // The JSON takes a few tens of ms, so a busy moment of a loaded machine (CI runs test files side
  // by side) can stall a probe on either server: five loads on each, turn about, the median's share
  // compared; a measurement that still ties is taken again, up to five times. A main thread that
  // made the JSON itself would lose every one.
  const measure = () => {
    const runs: { worker: Probed; main: Probed }[] = []
    return (async () => {
      for (let i = 0; i < 5; i++)
        runs.push({
          worker: await loadWhileProbing(server, jsonOf(onWorker)),
          main: await loadWhileProbing(mainOnly, jsonOf(onMain)),
        })
      const middle = (side: 'worker' | 'main') =>
        runs.map((run) => run[side]).sort((a, b) => a.longestProbe / a.pageMs - b.longestProbe / b.pageMs)[2]
      return { worker: middle('worker'), main: middle('main') }
    })()
  }
  const share = (p: Probed) => p.longestProbe / p.pageMs
  let { worker, main } = await measure()
  for (let attempt = 1; attempt < 5 && share(worker) >= share(main) / 2; attempt++)
    ({ worker, main } = await measure())
  const shape = (text: string) => {
    const bundle = JSON.parse(text)
    return {
      features: bundle.features.length,
      titles: bundle.features.map((f: { title: string }) => f.title).sort(),
    }
  }
  expect(worker.page.status).toBe(200)
  expect(shape(worker.page.text)).toEqual(shape(main.page.text))
  expect(shape(worker.page.text).features).toBe(FEATURES)
  expect(share(worker)).toBeLessThan(share(main) / 2)
}, 120_000)

it('renders at a lower priority than the main thread, so a write goes first when the cores are busy', async () => {
  expect((await fetch(`${server.url}/account/login`)).status).toBe(200)
  const niceness = threadNiceness(server.process.pid!)
  // The render threads: PAGE_THREADS defaults to one fewer than the cores.
  expect(niceness.filter((n) => n === 10)).toHaveLength(Math.max(1, os.availableParallelism() - 1))
  expect(niceness.filter((n) => n === 0).length).toBeGreaterThan(1) // the main thread, V8's and libuv's
})

it('renders pages on the worker, and leaves resource routes, /v1 and unknown API paths to the main thread', async () => {
  const build = (await import(path.resolve('build/server/index.js'))) as ServerBuild
  const isPage = pageRouteMatcher(build)
  for (const page of [
    '/account/login',
    '/acme',
    '/acme/projects/p1',
    '/acme/projects/p1/f/f1',
    '/link/k1',
    '/no/such/page',
  ])
    expect(isPage(page), page).toBe(true)
  for (const resource of [
    '/',
    '/acme/projects/p1/storymap.csv',
    '/acme/projects/p1/commands',
    '/link/k1/storymap.json',
    '/account/oidc/start',
    '/v1/projects/p1',
    '/v1/nothing/here',
    '/healthz',
    '/mcp',
  ])
    expect(isPage(resource), resource).toBe(false)
  // The API's whole-map reads go to the worker too; every other /v1 path stays.
  for (const read of ['/v1/projects/p1', '/v1/link/k1', '/V1/Projects/p1/'])
    expect(isMapRead(read), read).toBe(true)
  for (const other of [
    '/v1/projects',
    '/v1/projects/import',
    '/v1/projects/p1/events',
    '/v1/link/k1/export',
    '/v1/features/f1',
  ])
    expect(isMapRead(other), other).toBe(false)
})

it('a signed-out visitor is sent to log in, and an unknown page is a 404 page, from the worker', async () => {
  const board = await fetch(`${server.url}/acme/projects/p1`, { redirect: 'manual' })
  expect(board.status).toBe(302)
  expect(board.headers.get('location')).toMatch(/^\/account\/login/)
  const missing = await fetch(`${server.url}/no/such/page`)
  expect(missing.status).toBe(404)
  expect(missing.headers.get('content-type')).toMatch(/^text\/html/)
  expect(missing.headers.get('content-security-policy')).toMatch(/'nonce-[^']+'/)
  const nonce = /'nonce-([^']+)'/.exec(missing.headers.get('content-security-policy')!)![1]
  expect(await missing.text()).toContain(`nonce="${nonce}"`)
})
