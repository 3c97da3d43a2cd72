// npm run bench (issue #8): builds and starts the app on a temporary database, seeds a
// 4,000-feature story map through the API, measures it with autocannon and Chromium, prints a table.
// BENCH_SKIP_BUILD=1 reuses an existing build. BENCH_JSON=file also writes every figure as JSON.
// BENCH_ONLY=live measures only the live board's fan-out (and the rename baseline it is judged by).
// BENCH_ONLY=board measures only the board in Chromium (no HTTP load) and prints its figures.
import fs from 'node:fs'
import { measureBoard } from './bench/board-browser.mjs'
import { sequentialLatency, throughput } from './bench/http-load.mjs'
import { measureFanout, renamesWithStreams } from './bench/live-fanout.mjs'
import { describeMachine, formatTable, liveRows, loadAverage, resultRows } from './bench/report.mjs'
import { ApiClient, MAP_SHAPE, seedStoryMap } from './bench/seed.mjs'
import { buildApp, rssMegabytes, startApp, startBareServer } from './bench/servers.mjs'
import { benchImport, importLine, importRows, printImportOnly } from './bench/import.mjs'

/** The 20,000-card import (ADR 11), measured first on an app of its own so it moves no other figure. */
let importing

const step = (text) => process.stderr.write(`· ${text}\n`)

/** An autocannon request that renames the features in turn, each time to a new title. */
function renameRequest(features) {
  let renames = 0
  return {
    method: 'POST',
    setupRequest: (request) => {
      const feature = features[renames++ % features.length]
      return {
        ...request,
        path: `/v1/features/${feature.id}/rename`,
        body: JSON.stringify({ title: `Renamed ${renames}` }),
      }
    },
  }
}

async function measureHttp(app, client, map) {
  const headers = client.headers()
  const jsonHeaders = { ...headers, 'Content-Type': 'application/json' }
  const projectPath = `/v1/projects/${map.projectId}`
  const sample = await client.call('GET', projectPath)

  step('project read: sequential latency')
  const readLatency = await sequentialLatency({ url: app.url + projectPath, headers })
  step('project read right after a write: sequential latency')
  const readAfterWrite = await sequentialLatency({
    url: app.url,
    headers: jsonHeaders,
    requests: [renameRequest(map.features), { method: 'GET', path: projectPath }],
    minBytes: 100_000,
    warmup: 10,
    amount: 200,
  })
  step('project read: 20 connections for 10 s')
  const read = await throughput({ url: app.url + projectPath, headers })
  step('bare node:http server with the same bytes: 20 connections for 10 s')
  const bareServer = await startBareServer(sample.text, sample.contentType)
  const bare = await throughput({ url: bareServer.url + projectPath, headers }).finally(() =>
    bareServer.stop(),
  )
  step('feature rename: 20 connections for 10 s')
  const rename = await throughput({
    url: app.url,
    headers: jsonHeaders,
    requests: [renameRequest(map.features)],
  })
  step('GET /healthz (the framework alone): 20 connections for 10 s')
  const healthz = await throughput({ url: `${app.url}/healthz` })
  return {
    readLatency,
    readAfterWrite,
    read,
    bare,
    rename,
    healthz,
    bundleBytes: Buffer.byteLength(sample.text),
  }
}

function printReport(results, context) {
  const machine = describeMachine()
  const { board } = results
  console.log(`\nStorymap benchmark, ${new Date().toISOString()}`)
  console.log(
    `machine: ${machine.cpu}, ${machine.cores} cores, ${machine.ramGb} GB RAM; ${machine.os}; Node ${machine.node}; ${machine.chromium}`,
  )
  console.log(`load average at start: ${context.loadAtStart}; at end: ${loadAverage()}`)
  console.log(
    `map: ${MAP_SHAPE.goals} goals × ${MAP_SHAPE.activitiesPerGoal} activities × ${MAP_SHAPE.releases} releases, ` +
      `${MAP_SHAPE.features} features, ${MAP_SHAPE.comments} comments; seeded in ${context.seedSeconds.toFixed(1)} s; ` +
      `project JSON ${(results.bundleBytes / 1024).toFixed(0)} KB\n`,
  )
  console.log(formatTable([...resultRows(results), ...importRows(importing)]))
  const loads = board.loadSamples.map((s) => `${s.cardsAt.toFixed(0)}/${s.hydratedAt.toFixed(0)}`)
  console.log(`\nboard loads (ms since navigation, cards in page / hydrated): ${loads.join(', ')}`)
  console.log(`drops (ms to card shown): ${board.dropSamples.map((d) => d.shown.toFixed(1)).join(', ')}`)
  console.log(
    `search keys (key: ms to filtered board shown, count): ${board.searchSamples
      .map((s) => `${s.key} ${s.shown.toFixed(1)} (${s.count})`)
      .join('; ')}; load average now ${loadAverage()}`,
  )
  console.log(
    `board JS files: ${board.jsFiles.length}; p50 at 20 connections: read ${results.read.p50.toFixed(1)} ms, ` +
      `rename ${results.rename.p50.toFixed(1)} ms, healthz ${results.healthz.p50.toFixed(1)} ms`,
  )
  console.log(importLine(importing))
  if (process.env.BENCH_JSON)
    fs.writeFileSync(process.env.BENCH_JSON, JSON.stringify({ machine, results: { ...results, importing } }, null, 2))
}

async function measureLiveOnly(app, client, account, map) {
  step('feature rename: 20 connections for 10 s')
  const rename = await throughput({
    url: app.url,
    headers: { ...client.headers(), 'Content-Type': 'application/json' },
    requests: [renameRequest(map.features)],
  })
  step('live: 1,000 streams on the map, 40 renames fanned out')
  const fanout = await measureFanout({ app, client, account, map, rss: () => rssMegabytes(app.pid) })
  step('live: feature rename with 200 streams open, 20 connections for 10 s')
  const renameLive = await renamesWithStreams({ app, client, account, map, renameRequest })
  console.log(`load average: ${loadAverage()}`)
  console.log(formatTable(liveRows({ fanout, renameLive, rename })))
}

function printBoardOnly(board, loadAtStart) {
  const { jsFiles: _files, loadSamples: _loads, ...figures } = board
  console.log(JSON.stringify(figures, null, 1))
  console.log(`load average at start: ${loadAtStart}; at end: ${loadAverage()}`)
}

async function main() {
  const loadAtStart = loadAverage()
  step('building (npm run build)')
  buildApp()
  importing = await benchImport(step)
  if (process.env.BENCH_ONLY === 'import') return printImportOnly(importing, loadAtStart)
  step('starting the app on a temporary database')
  const app = await startApp()
  try {
    const client = new ApiClient(app.url)
    const account = await client.signUp()
    step(`seeding ${MAP_SHAPE.features} features through the API`)
    const seedStarted = performance.now()
    const map = await seedStoryMap(client)
    const seedSeconds = (performance.now() - seedStarted) / 1000

    if (process.env.BENCH_ONLY === 'live') return await measureLiveOnly(app, client, account, map)
    const boardOnly = process.env.BENCH_ONLY === 'board'
    const http = boardOnly ? null : await measureHttp(app, client, map)
    step('board in Chromium: load, search and drag')
    const board = await measureBoard({
      origin: app.url,
      boardPath: `/${account.workspaceName}/projects/${map.projectId}`,
      cookie: client.cookie,
      expectedCards: MAP_SHAPE.features,
    })
    const rss = rssMegabytes(app.pid)
    if (boardOnly) return printBoardOnly(board, loadAtStart)
    step('live: 1,000 streams on the map, 40 renames fanned out')
    const fanout = await measureFanout({ app, client, account, map, rss: () => rssMegabytes(app.pid) })
    step('live: feature rename with 200 streams open, 20 connections for 10 s')
    const renameLive = await renamesWithStreams({ app, client, account, map, renameRequest })
    printReport({ ...http, board, rss, fanout, renameLive }, { loadAtStart, seedSeconds })
  } finally {
    await app.stop()
  }
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
