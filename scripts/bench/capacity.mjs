// npm run bench -- --capacity (issue 34, item 1): teams at work, ramped until the server breaks.
// A team: one workspace, five members, a 300-card map, every member with the board open; each
// member writes about every 10 s and reloads the board about every 2 minutes (capacity-load.mjs).
// Steps of 20, 40, 80 … teams (seeded teams are kept; each step adds teams), a warm-up, then a
// measured window: writes/s, write latency, event lag, errors, the server's CPU, loop delay and
// RSS, and the load generator's own loop delay. The ramp stops at the first step that misses the
// bars. `--big-board`: 20 teams at work while someone else loads a 4,000-card board once a second.
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { WRITE_EVERY_MS, Window, Workload } from './capacity-load.mjs'
import { BROWSER_HEADERS, PAGE_ACCEPT, resent, send } from './capacity-http.mjs'
import { clientProbe, openFileLimit, serverProbe } from './capacity-probes.mjs'
import { seedTeams, startSmtpSink } from './capacity-teams.mjs'
import { percentile } from './http-load.mjs'
import { cpuCalibration, loadAverage } from './report.mjs'
import { ApiClient, mapShape, seedStoryMap } from './seed.mjs'
import { startApp } from './servers.mjs'

/** The bars a step must hold (issue 34). */
export const BARS = { writeP99Ms: 100, lagP99Ms: 1000 }
/** Stream cap per process (CONTRACT §6). */
const STREAM_CAP = 5000
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

function option(argv, name, fallback) {
  const at = argv.indexOf(name)
  return at === -1 ? fallback : argv[at + 1]
}

export function capacityOptions(argv) {
  return {
    steps: option(argv, '--steps', '20,40,80,160,320,640').split(',').map(Number),
    // The comparison's windows are longer: at 20 teams a 30 s window has only ~300 writes for its p99.
    stepSeconds: Number(option(argv, '--step-seconds', argv.includes('--big-board') ? '60' : '30')),
    warmupSeconds: Number(option(argv, '--warmup-seconds', '10')),
    bigBoard: argv.includes('--big-board'),
    bigTeams: Number(option(argv, '--teams', '20')),
    // `--profile DIR`: the server runs with --cpu-prof (one profile per thread, written when it stops).
    profileDir: option(argv, '--profile', null),
    // `--seeded DIR`: teams seeded once are kept in DIR (the database and teams.json) and each later
    // run starts from a copy of them, skipping the minutes of sign-ups (for A/B runs of one build).
    seededDir: option(argv, '--seeded', null),
    // `--reload api`: members reload the board's JSON (GET /v1/projects/{id}) instead of its page (issue 49).
    reload: option(argv, '--reload', 'page'),
  }
}

/** The app as `npm start` runs it, mailing to the SMTP sink, with /metrics on if it has one. */
async function startStack(step, profileDir, seeded) {
  step('starting the SMTP sink and the app (METRICS_TOKEN set, RATE_LIMIT=off)')
  const sink = await startSmtpSink()
  const metricsToken = crypto.randomBytes(16).toString('hex')
  // BENCH_NODE_FLAGS: more flags for the server's node, to try a V8 setting (`--heap-growing-percent=30`).
  const nodeFlags = process.env.BENCH_NODE_FLAGS
    ? process.env.BENCH_NODE_FLAGS.split(' ').filter(Boolean)
    : []
  const extraFlags = [...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []), ...nodeFlags]
  const app = await startApp({
    extraFlags,
    extraEnv: { SMTP_URL: sink.url, METRICS_TOKEN: metricsToken },
    databaseDir: seeded?.databaseDir,
  })
  const server = await serverProbe({ origin: app.url, pid: app.pid, metricsToken })
  const stop = async () => {
    await app.stop()
    await sink.stop()
    if (seeded?.copy) fs.rmSync(seeded.databaseDir, { recursive: true, force: true })
  }
  return { sink, app, server, client: clientProbe(), tag: seeded?.tag ?? Date.now().toString(36), stop }
}

/**
 * Teams kept by an earlier run with `--seeded DIR`: the run starts on a copy of its database (the
 * writes of this run never reach DIR). Without them yet, the run seeds into DIR itself and records
 * every seeded team in DIR/teams.json.
 */
function seededStore(dir) {
  if (!dir) return null
  fs.mkdirSync(dir, { recursive: true })
  const listFile = path.join(dir, 'teams.json')
  if (!fs.existsSync(listFile)) {
    const tag = Date.now().toString(36)
    return {
      databaseDir: dir,
      copy: false,
      tag,
      teams: [],
      save: (teams) => fs.writeFileSync(listFile, JSON.stringify({ tag, teams })),
    }
  }
  const { tag, teams } = JSON.parse(fs.readFileSync(listFile, 'utf8'))
  const copyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'storymap-bench-'))
  // The database with its log, and the session secret the members' cookies are signed with.
  for (const file of fs.readdirSync(dir))
    if (file !== 'teams.json') fs.copyFileSync(path.join(dir, file), path.join(copyDir, file))
  return { databaseDir: copyDir, copy: true, tag, teams, save: () => {} }
}

/** Teams `from`…`to - 1`: the kept ones when there are enough, else seeded through the API (and kept). */
async function teamsFor(stack, seeded, from, to) {
  if (seeded && seeded.teams.length >= to) return seeded.teams.slice(from, to)
  // The kept teams first; the rest are seeded (into this run's copy when DIR was seeded before).
  const kept = seeded ? seeded.teams.slice(from, to) : []
  const teams = [...kept, ...(await seedTeams(stack.app.url, stack.sink, stack.tag, from + kept.length, to))]
  if (seeded && !seeded.copy && seeded.teams.length === from) {
    seeded.teams.push(...teams.slice(kept.length))
    seeded.save(seeded.teams)
  }
  return teams
}

/** Warnings about this process's limits for `members` members (one stream and up to one request each). */
export function limitWarnings(members) {
  const warnings = []
  const files = openFileLimit()
  const needed = members * 2 + 200
  if (files < needed)
    warnings.push(
      `ulimit -n is ${files}: ${members.toLocaleString('en')} members need about ${needed.toLocaleString('en')} ` +
        'open files in the load generator and as many in the server (raise it with ulimit -n)',
    )
  if (members > STREAM_CAP)
    warnings.push(
      `${members.toLocaleString('en')} streams exceed the server's cap of ${STREAM_CAP} per process (503s)`,
    )
  return warnings
}

/** One measured window of the workload (after its warm-up): the figures of a step or phase. */
async function measure(stack, workload, label, seconds, during = async () => {}) {
  const window = new Window(label)
  workload.window = window
  await stack.server.begin()
  stack.client.begin()
  const extra = await during(seconds * 1000)
  window.endedAt = performance.now()
  workload.window = null
  const server = await stack.server.end()
  const client = stack.client.end()
  await workload.drain(window)
  return { window, result: summarize(window, { server, client, members: workload.memberCount, extra }) }
}

function summarize(window, { server, client, members, extra }) {
  const writes = window.writeMs.length
  const result = {
    label: window.label,
    members,
    seconds: window.seconds,
    writes,
    writesPerSecond: writes / window.seconds,
    offeredPerSecond: members / (WRITE_EVERY_MS / 1000),
    kinds: window.kinds,
    writeP50: percentile(window.writeMs, 50),
    writeP99: percentile(window.writeMs, 99),
    lagSamples: window.lagMs.length,
    lagP50: percentile(window.lagMs, 50),
    lagP99: percentile(window.lagMs, 99),
    skippedLags: window.skippedLags,
    loads: window.loadMs.length,
    loadsPerSecond: window.loadMs.length / window.seconds,
    loadP50: percentile(window.loadMs, 50),
    loadP99: percentile(window.loadMs, 99),
    errors: window.errors,
    errorCount: window.errorCount,
    errorSamples: window.errorSamples,
    server,
    client,
    ...(extra ?? {}),
  }
  result.holds =
    result.writeP99 <= BARS.writeP99Ms && result.lagP99 <= BARS.lagP99Ms && result.errorCount === 0
  // A client that spends most of a core, or whose loop lags, times late: its latencies are upper bounds.
  result.clientSaturated = client.cpuShare > 0.85 || client.loopP99Ms > 50
  return result
}

/** The ramp: each step seeds the teams it adds, warms up, measures; stops at the first miss. */
export async function benchCapacity(step, options, onStep = () => {}) {
  const seeded = seededStore(options.seededDir)
  const stack = await startStack(step, options.profileDir, seeded)
  const workload = new Workload(stack.app.url, { reload: options.reload })
  const steps = []
  try {
    step('the server idle: /healthz round trips for 3 s')
    await stack.server.begin()
    await sleep(3000)
    const idle = await stack.server.end()
    for (const teams of options.steps) {
      workload.stop()
      const before = { loadAverage: loadAverage(), loopMs: cpuCalibration().ms }
      const from = workload.teams.length
      step(`${teams} teams: seeding teams ${from + 1}–${teams} through the API`)
      const seedStarted = performance.now()
      await workload.addTeams(await teamsFor(stack, seeded, from, teams))
      const seedSeconds = (performance.now() - seedStarted) / 1000
      workload.start()
      step(
        `${teams} teams (${workload.memberCount} streams): warm-up ${options.warmupSeconds} s, then ${options.stepSeconds} s measured`,
      )
      await sleep(options.warmupSeconds * 1000)
      const { result } = await measure(stack, workload, `${teams} teams`, options.stepSeconds, sleep)
      steps.push({ teams, seedSeconds, before, loadAverageAfter: loadAverage(), ...result })
      onStep(steps.at(-1))
      if (!result.holds) break
    }
    return {
      idle,
      sources: sources(stack.server),
      steps,
      resent: resent.count,
      warnings: limitWarnings(workload.memberCount),
    }
  } finally {
    await workload.close()
    await stack.stop()
  }
}

const sources = (server) => ({ loop: server.loopSource, rss: server.rssSource, metrics: server.metrics })

/** Loads `url` one after another, starting one at most once a second, until `ms` have passed. */
async function onceASecond(url, headers, ms) {
  const samples = []
  let errors = 0
  let bytes = 0
  const until = performance.now() + ms
  while (performance.now() < until) {
    const started = performance.now()
    const answer = await send(url, { headers })
    if (answer.status === 200) samples.push(answer.ms)
    else errors += 1
    bytes = answer.bytes
    await sleep(Math.max(0, Math.min(until, started + 1000) - performance.now()))
  }
  return {
    bigLoads: samples.length,
    bigP50: percentile(samples, 50),
    bigP99: percentile(samples, 99),
    bigErrors: errors,
    bigBytes: bytes,
  }
}

/**
 * The weak spot: `bigTeams` teams at work, measured without anything else, with a 4,000-card
 * board page loaded once a second in another workspace, with that board's JSON once a second,
 * and without again (the machine's speed drifts; both baselines are printed and pooled).
 */
export async function benchBigBoard(step, options) {
  const stack = await startStack(step, options.profileDir)
  const workload = new Workload(stack.app.url)
  try {
    step(`seeding ${options.bigTeams} teams and, in a workspace of its own, the 4,000-card map`)
    const seeded = await seedTeams(stack.app.url, stack.sink, stack.tag, 0, options.bigTeams)
    const owner = new ApiClient(stack.app.url)
    const account = await owner.signUp()
    const map = await seedStoryMap(owner, mapShape(4000))
    await workload.addTeams(seeded)
    workload.start()
    step(`warm-up ${options.warmupSeconds} s`)
    await sleep(options.warmupSeconds * 1000)
    const browser = { ...BROWSER_HEADERS, Cookie: owner.cookie }
    const page = {
      url: `${stack.app.url}/${account.workspaceName}/projects/${map.projectId}`,
      headers: { ...browser, Accept: PAGE_ACCEPT },
    }
    const json = {
      url: `${stack.app.url}/v1/projects/${map.projectId}`,
      headers: { ...browser, Workspace: owner.workspaceId, Accept: 'application/json' },
    }
    const phases = [
      ['without the big board', null],
      ['with the 4,000-card board page once a second', page],
      ['with the 4,000-card board JSON once a second', json],
      ['without the big board, again', null],
    ]
    const measured = []
    for (const [label, big] of phases) {
      step(`${label}: ${options.stepSeconds} s`)
      const during = big ? (ms) => onceASecond(big.url, big.headers, ms) : sleep
      measured.push(await measure(stack, workload, label, options.stepSeconds, during))
    }
    const baseline = [...measured[0].window.writeMs, ...measured[3].window.writeMs]
    return {
      teams: options.bigTeams,
      sources: sources(stack.server),
      baselineP99: percentile(baseline, 99),
      resent: resent.count,
      phases: measured.map((m) => m.result),
    }
  } finally {
    await workload.close()
    await stack.stop()
  }
}
