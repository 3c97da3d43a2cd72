// npm run bench (issues #8, #15): builds and starts the app on a temporary database, seeds a story
// map through the API, measures it with autocannon and Chromium, and prints a table.
//   npm run bench                          the 4,000-feature map (and the live fan-out, the import)
//   npm run bench -- --cards 10000         another size (1000, 4000 or 10000)
//   npm run bench -- --cards 1000,4000,10000   each in turn, then a table of how each cost grows
// BENCH_SKIP_BUILD=1 reuses an existing build. BENCH_JSON=file also writes every figure as JSON.
// BENCH_ONLY=import: only the 20,000-card import. BENCH_ONLY=live: only the live board's fan-out
// (and the rename baseline it is judged by). BENCH_ONLY=board: only the board in Chromium.
// BENCH_ONLY=ladder: only the request-path ladder (bare node:http → Express → Remix → the app).
// BENCH_ONLY=mcp: only an MCP add_feature round trip beside the REST create (also part of the full run).
// BENCH_ONLY=webhooks: only renames/s with a webhook whose receiver takes 5 s, against without
// (BENCH_SECONDS sets each measurement's length, default 10).
//   npm run bench -- --capacity            teams at work, ramped until it breaks (issue 34; capacity.mjs)
//   npm run bench -- --capacity --big-board   20 teams beside a 4,000-card board loaded once a second
//   npm run bench -- --capacity --profile DIR   the same with the server under --cpu-prof (a profile per thread in DIR)
//   npm run bench -- --capacity --seeded DIR    teams seeded once into DIR, each later run on a copy (A/B runs)
//   npm run bench -- --capacity --reload api    members reload the board's JSON through the API, not its page (issue 49)
// For A/B runs: BENCH_APP_ENV="NAME=value …" gives the app more environment, BENCH_NODE_FLAGS more Node
// flags, and BENCH_APP_LOG=FILE keeps the app's output (with BENCH_NODE_FLAGS=--trace-gc, say).
// BENCH_ONLY=edits: what one edit on a 300-card board costs the server: a /v1 rename, the board's
// command, and the command with a reload of the board's data (also part of the full run).
// BENCH_ONLY=trackers: GitLab and Jira Cloud through the connector (issue 46): Send to tracker of a
// 200-feature release and a quiet poll of a 1,000-issue project, per provider (scripts/bench/trackers.mjs).
// BENCH_ONLY=github: GitHub Issues sync against the fake GitHub: Send to GitHub of a 200-feature
// release, 200 renames through the outbox, and polls of a 1,000-issue repository, beside the same
// calls from bare Octokit (also part of the full run).
import fs from 'node:fs'
import { measureBoard } from './bench/board-browser.mjs'
import { measureViews, printViews } from './bench/board-views.mjs'
import { sequentialLatency, throughput } from './bench/http-load.mjs'
import { benchImport, importLine, importRows, printImportOnly } from './bench/import.mjs'
import { measureFanout, renamesWithStreams } from './bench/live-fanout.mjs'
import { benchMcp, printMcp } from './bench/mcp.mjs'
import { benchLadder, printLadder } from './bench/ladder.mjs'
import { benchWebhooks, printWebhooks } from './bench/webhooks.mjs'
import { benchBigBoard, benchCapacity, capacityOptions, limitWarnings } from './bench/capacity.mjs'
import { printBigBoard, printCapacity, stepLine } from './bench/capacity-report.mjs'
import { TEAM_SHAPE } from './bench/capacity-teams.mjs'
import { benchGithub, printGithub } from './bench/github.mjs'
import { benchTrackers, printTrackers } from './bench/trackers.mjs'
import { benchBoardEdits, printBoardEdits } from './bench/board-edits.mjs'
import {
  cpuCalibration,
  describeMachine,
  formatTable,
  growthTable,
  othersBusy,
  othersShare,
  percent,
  liveRows,
  loadAverage,
  resultRows,
} from './bench/report.mjs'
import { ApiClient, mapShape, seedStoryMap } from './bench/seed.mjs'
import {
  buildApp,
  rawGet,
  rssMegabytes,
  startApp,
  startBareServer,
  startStaticBoardCopy,
} from './bench/servers.mjs'

const step = (text) => process.stderr.write(`· ${text}\n`)
/** What Chromium sends (issue #15 judges the read as a browser asks for it). */
const BROWSER_ENCODINGS = 'gzip, deflate, br'
/** The live fan-out is measured on this map (issue "Live board": one 4,000-card project). */
const LIVE_SIZE = 4000
/** How long the app sits idle before its RSS is read again (V8's memory reducer has run by then). */
const RSS_SETTLE_MS = 12_000

function sizesFromArgs() {
  const at = process.argv.indexOf('--cards')
  const value = at === -1 ? (process.env.BENCH_CARDS ?? '4000') : process.argv[at + 1]
  return value.split(',').map((n) => Number(n.replace(/[_,]/g, '')))
}

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

/** Requests per second of `url` against a bare node:http server sending the same bytes. */
async function againstBare(url, headers, sample) {
  const app = await throughput({ url, headers })
  const bareServer = await startBareServer(sample.body, sample.headers['content-type'], {
    contentEncoding: sample.headers['content-encoding'],
  })
  const bare = await throughput({ url: bareServer.url + new URL(url).pathname, headers }).finally(() =>
    bareServer.stop(),
  )
  return { app, bare }
}

async function measureHttp(app, client, map) {
  const headers = client.headers()
  const browserHeaders = { ...headers, 'Accept-Encoding': BROWSER_ENCODINGS }
  const jsonHeaders = { ...headers, 'Content-Type': 'application/json' }
  const projectPath = `/v1/projects/${map.projectId}`
  const plain = await rawGet(app.url + projectPath, headers)
  const compressed = await rawGet(app.url + projectPath, browserHeaders)

  step(`project read as a browser asks (${BROWSER_ENCODINGS}): sequential latency`)
  const browserReadLatency = await sequentialLatency({ url: app.url + projectPath, headers: browserHeaders })
  step('project read as a browser asks: 20 connections for 10 s, then a bare server with the same bytes')
  const browserRead = await againstBare(app.url + projectPath, browserHeaders, compressed)
  step('project read, uncompressed: sequential latency')
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
  step('project read, uncompressed: 20 connections for 10 s, then a bare server with the same bytes')
  const plainRead = await againstBare(app.url + projectPath, headers, plain)
  step('feature rename: 20 connections for 10 s')
  const rename = await throughput({
    url: app.url,
    headers: jsonHeaders,
    requests: [renameRequest(map.features)],
  })
  step('GET /healthz (the framework alone): 20 connections for 10 s, then a bare server with the same bytes')
  const healthzSample = await rawGet(`${app.url}/healthz`)
  const healthz = await againstBare(`${app.url}/healthz`, {}, healthzSample)
  return {
    browserReadLatency,
    browserRead: browserRead.app,
    browserBare: browserRead.bare,
    browserEncoding: compressed.headers['content-encoding'] ?? 'none',
    compressedBytes: compressed.body.length,
    readLatency,
    readAfterWrite,
    read: plainRead.app,
    bare: plainRead.bare,
    rename,
    healthz: healthz.app,
    healthzBare: healthz.bare,
    bundleBytes: plain.body.length,
  }
}

async function measureBrowser(app, client, account, map, shape) {
  const boardPath = `/${account.workspaceName}/projects/${map.projectId}`
  const staticCopy = await startStaticBoardCopy(app.url, boardPath, client.cookie)
  try {
    step('board in Chromium at 100 %, at 25 % and with every goal folded')
    const views = await measureViews({ client, origin: app.url, boardPath, projectId: map.projectId })
    printViews(views)
    step('board in Chromium: the static copy and the board, load, drag and search')
    const board = await measureBoard({
      origin: app.url,
      boardPath,
      cookie: client.cookie,
      expectedCards: shape.features,
      staticCopy,
    })
    return { ...board, views, staticHtmlBytes: staticCopy.htmlBytes }
  } finally {
    await staticCopy.stop()
  }
}

async function measureLive(app, client, account, map) {
  step('live: 1,000 streams on the map, 40 renames fanned out')
  const fanout = await measureFanout({ app, client, account, map, rss: () => rssMegabytes(app.pid) })
  step('live: feature rename with 200 streams open, 20 connections for 10 s')
  const renameLive = await renamesWithStreams({ app, client, account, map, renameRequest })
  return { fanout, renameLive }
}

/** Everything for one map size, on an app of its own (a fresh database and process). */
async function measureSize(size, withLive) {
  const shape = mapShape(size)
  step(`${size.toLocaleString('en')} features: how busy the machine is (2 s with the bench idle)`)
  const machineBefore = { others: await othersShare(), loopMs: cpuCalibration().ms }
  step(`${size.toLocaleString('en')} features: starting the app on a temporary database`)
  const app = await startApp()
  try {
    const client = new ApiClient(app.url)
    const account = await client.signUp()
    step(`seeding ${size.toLocaleString('en')} features through the API`)
    const seedStarted = performance.now()
    const map = await seedStoryMap(client, shape)
    const seedSeconds = (performance.now() - seedStarted) / 1000
    const only = process.env.BENCH_ONLY
    if (only === 'live') {
      const rename = await throughput({
        url: app.url,
        headers: { ...client.headers(), 'Content-Type': 'application/json' },
        requests: [renameRequest(map.features)],
      })
      return { shape, machineBefore, seedSeconds, rename, ...(await measureLive(app, client, account, map)) }
    }
    const http = only === 'board' ? null : await measureHttp(app, client, map)
    const board = await measureBrowser(app, client, account, map, shape)
    const rss = rssMegabytes(app.pid)
    // V8 gives back the heap a burst of renders grew once the process has been idle a few seconds.
    step('server RSS again after 12 s idle')
    await new Promise((resolve) => setTimeout(resolve, RSS_SETTLE_MS))
    const rssSettled = rssMegabytes(app.pid)
    const live = withLive && !only ? await measureLive(app, client, account, map) : {}
    return {
      shape,
      machineBefore,
      seedSeconds,
      ...http,
      board,
      rss,
      rssSettled,
      ...live,
      load: loadAverage(),
    }
  } finally {
    await app.stop()
  }
}

function printSize(results, importing) {
  const { shape } = results
  console.log(
    `\n## ${shape.features.toLocaleString('en')} features: ${shape.goals} goals × ${shape.activitiesPerGoal} activities × ` +
      `${shape.releases} releases × ${shape.perCell} per cell, ${shape.comments} comments; seeded in ${results.seedSeconds.toFixed(1)} s` +
      (results.bundleBytes
        ? `; project JSON ${(results.bundleBytes / 1024).toFixed(0)} KB (${results.browserEncoding} ${(results.compressedBytes / 1024).toFixed(0)} KB)`
        : ''),
  )
  const before = results.machineBefore
  console.log(
    `before this size: other programs used ${percent(before.others)} of the cores, core speed ${Math.round(before.loopMs)} ms` +
      `${othersBusy(before.others) ? ' — BUSY MACHINE: figures are not comparable' : ' (a quiet machine)'}; ` +
      `load average after it: ${results.load} (mostly the bench's own work)\n`,
  )
  console.log(formatTable([...resultRows(results), ...(importing ? importRows(importing) : [])]))
  const { board } = results
  const loads = board.loadSamples.map((s) => `${s.cardsAt.toFixed(0)}/${s.hydratedAt.toFixed(0)}`)
  console.log(`\nboard loads (ms since navigation, cards in page / hydrated): ${loads.join(', ')}`)
  console.log(
    `static copy loads (ms, cards in page): ${board.staticSamples.map((s) => s.cardsAt.toFixed(0)).join(', ')}`,
  )
  console.log(`drops (ms to card shown): ${board.dropSamples.map((d) => d.shown.toFixed(1)).join(', ')}`)
  console.log(
    `cards clicked as soon as shown (ms: click / hydrated / dialog shown): ${board.earlyClicks
      .map((c) => `${c.clickedAt.toFixed(0)} / ${c.hydratedAt.toFixed(0)} / ${c.dialogAt.toFixed(0)}`)
      .join(', ')}`,
  )
  console.log(
    `search keys (key: ms to filtered board shown, count): ${board.searchSamples
      .map((s) => `${s.key} ${s.shown.toFixed(1)} (${s.count})`)
      .join('; ')}`,
  )
  if (board.views) printViews(board.views)
  if (results.read)
    console.log(
      `board JS files: ${board.jsFiles.length}; p50 at 20 connections: read ${results.read.p50.toFixed(1)} ms, ` +
        `rename ${results.rename.p50.toFixed(1)} ms, healthz ${results.healthz.p50.toFixed(1)} ms`,
    )
  if (importing) console.log(importLine(importing))
}

/** `--capacity`: the ramp, or with `--big-board` the comparison; the machine printed beside the figures. */
async function capacity() {
  const options = capacityOptions(process.argv)
  const loadAtStart = loadAverage()
  step('building (npm run build)')
  buildApp()
  const machine = { ...describeMachine(), loopMs: cpuCalibration().ms }
  console.log(`\nStorymap capacity benchmark, ${new Date().toISOString()}`)
  console.log(
    `machine: ${machine.cpu}, ${machine.cores} cores, ${machine.ramGb} GB RAM; ${machine.os}; Node ${machine.node}`,
  )
  console.log(
    `load average at start: ${loadAtStart}; core speed: a loop of 10⁸ additions takes ${Math.round(machine.loopMs)} ms`,
  )
  const biggest = options.bigBoard ? options.bigTeams : Math.max(...options.steps)
  for (const warning of limitWarnings(biggest * TEAM_SHAPE.members))
    console.log(`WARNING (largest step): ${warning}`)
  const results = options.bigBoard
    ? await benchBigBoard(step, options)
    : await benchCapacity(step, options, (s) => step(stepLine(s)))
  if (options.bigBoard) printBigBoard(results)
  else printCapacity(results, options)
  const loopAtEnd = cpuCalibration().ms
  console.log(`\nload average at end: ${loadAverage()}; core speed at end: ${Math.round(loopAtEnd)} ms`)
  if (process.env.BENCH_JSON)
    fs.writeFileSync(
      process.env.BENCH_JSON,
      JSON.stringify(
        {
          mode: options.bigBoard ? 'big-board' : 'capacity',
          machine,
          loadAtStart,
          loopAtEnd,
          options,
          ...results,
        },
        null,
        2,
      ),
    )
}

async function main() {
  if (process.argv.includes('--capacity')) return capacity()
  const loadAtStart = loadAverage()
  const sizes = sizesFromArgs()
  sizes.forEach(mapShape) // refuses an unknown size before the build
  step('building (npm run build)')
  buildApp()
  if (process.env.BENCH_ONLY === 'import') return printImportOnly(await benchImport(step), loadAtStart)
  if (process.env.BENCH_ONLY === 'mcp') return printMcp(await benchMcp(step), loadAverage())
  if (process.env.BENCH_ONLY === 'ladder') return printLadder(await benchLadder(step))
  if (process.env.BENCH_ONLY === 'webhooks') return printWebhooks(await benchWebhooks(step), loadAverage())
  if (process.env.BENCH_ONLY === 'trackers') return printTrackers(await benchTrackers(step), loadAverage())
  if (process.env.BENCH_ONLY === 'github')
    return printGithub(await benchGithub(step), loadAverage(), cpuCalibration().ms)
  if (process.env.BENCH_ONLY === 'edits') return printBoardEdits(await benchBoardEdits(step), loadAverage())
  const importing = process.env.BENCH_ONLY ? null : await benchImport(step)
  const machine = { ...describeMachine(), loopMs: cpuCalibration().ms }
  console.log(`\nStorymap benchmark, ${new Date().toISOString()}`)
  console.log(
    `machine: ${machine.cpu}, ${machine.cores} cores, ${machine.ramGb} GB RAM; ${machine.os}; Node ${machine.node}; ${machine.chromium}`,
  )
  const othersAtStart = await othersShare()
  console.log(
    `load average at start: ${loadAtStart}; other programs used ${percent(othersAtStart)} of the cores` +
      `${othersBusy(othersAtStart) ? ' (busy machine)' : ''}`,
  )
  console.log(`core speed: a loop of 10⁸ additions takes ${Math.round(machine.loopMs)} ms`)
  const all = []
  for (const size of sizes) {
    const results = await measureSize(size, size === LIVE_SIZE || sizes.length === 1)
    all.push(results)
    if (process.env.BENCH_ONLY === 'live') {
      console.log(`load average: ${loadAverage()}`)
      console.log(formatTable(liveRows(results)))
    } else printSize(results, all.length === 1 ? importing : null)
  }
  if (!process.env.BENCH_ONLY) printMcp(await benchMcp(step), loadAverage())
  if (!process.env.BENCH_ONLY) printLadder(await benchLadder(step))
  if (!process.env.BENCH_ONLY) printGithub(await benchGithub(step), loadAverage(), machine.loopMs)
  if (!process.env.BENCH_ONLY) printBoardEdits(await benchBoardEdits(step), loadAverage())
  if (all.length > 1 && !process.env.BENCH_ONLY) {
    console.log('\n## How each cost grows with the map\n')
    console.log(growthTable(all))
  }
  console.log(`\nload average at end: ${loadAverage()}`)
  if (process.env.BENCH_JSON)
    fs.writeFileSync(
      process.env.BENCH_JSON,
      JSON.stringify({ machine, loadAtStart, importing, sizes: all }, null, 2),
    )
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
