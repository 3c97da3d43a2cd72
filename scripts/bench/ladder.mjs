// BENCH_ONLY=ladder (issue "Speed"): GET /healthz through each layer of the stack, from bare
// node:http to the whole app, each in its own process, the rungs alternating over ROUNDS rounds
// (medians), and feature renames through the whole app; printed as ratios to Remix's own handler.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { throughput } from './http-load.mjs'
import { loadAverage } from './report.mjs'
import { ApiClient, mapShape, seedStoryMap } from './seed.mjs'
import { spawnListening, startApp } from './servers.mjs'

const ROUNDS = Number(process.env.LADDER_ROUNDS ?? 3)
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5)
const ALL_RUNGS = [
  ['bare', 'bare node:http'],
  ['express', 'Express, one plain route'],
  ['remix', "node:http + Remix's createRequestHandler (our build)"],
  ['express-remix', 'Express + Remix, no middleware'],
  ['app', 'the whole app'],
  ['app-metrics', 'the whole app, METRICS_TOKEN set (each request timed, by route pattern)'],
]
// LADDER_RUNGS=remix,app narrows the ladder while trying a cut (the printout needs "remix").
const RUNGS = process.env.LADDER_RUNGS
  ? ALL_RUNGS.filter(([v]) => process.env.LADDER_RUNGS.split(',').includes(v))
  : ALL_RUNGS
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

async function startRung(variant, dir) {
  if (variant === 'app') return startApp({ databaseDir: dir })
  if (variant === 'app-metrics')
    return startApp({ databaseDir: dir, extraEnv: { METRICS_TOKEN: 'ladder-metrics-token' } })
  const env = {
    PATH: process.env.PATH,
    NODE_ENV: 'production',
    DATABASE_PATH: path.join(dir, 'storymap.db'),
    LOG_LEVEL: 'warn',
    LADDER_VARIANT: variant,
  }
  return spawnListening(['scripts/bench/ladder-server.mjs'], env, variant)
}

export async function benchLadder(step) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'storymap-ladder-'))
  const samples = Object.fromEntries(RUNGS.map(([v]) => [v, []]))
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      for (const [variant, label] of round % 2 ? RUNGS : [...RUNGS].reverse()) {
        step(`ladder round ${round}/${ROUNDS}: ${label}, 20 connections for ${SECONDS} s`)
        const server = await startRung(variant, dir)
        try {
          await throughput({ url: `${server.url}/healthz`, seconds: 1 }) // warm-up
          samples[variant].push(await throughput({ url: `${server.url}/healthz`, seconds: SECONDS }))
        } finally {
          await server.stop()
        }
      }
    }
    step('feature renames through the whole app: 20 connections')
    const app = await startApp({ databaseDir: dir })
    try {
      const client = new ApiClient(app.url)
      await client.signUp()
      const map = await seedStoryMap(client, mapShape(1000))
      let n = 0
      const renames = []
      for (let round = 0; round < ROUNDS; round++) {
        renames.push(
          await throughput({
            url: app.url,
            headers: { ...client.headers(), 'Content-Type': 'application/json' },
            seconds: SECONDS,
            requests: [
              {
                method: 'POST',
                setupRequest: (req) => ({
                  ...req,
                  path: `/v1/features/${map.features[n++ % map.features.length].id}/rename`,
                  body: JSON.stringify({ title: `Renamed ${n}` }),
                }),
              },
            ],
          }),
        )
      }
      return { samples, renames, load: loadAverage() }
    } finally {
      await app.stop()
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

export function printLadder({ samples, renames, load }) {
  const perSecond = (v) => median(samples[v].map((s) => s.perSecond))
  const floor = perSecond('remix')
  console.log(
    `\n## The request path: GET /healthz through each layer (${ROUNDS} alternating rounds, medians, 20 connections)\n`,
  )
  console.log('| rung | requests/s | p99 ms | × Remix handler |')
  console.log('| --- | --- | --- | --- |')
  for (const [variant, label] of RUNGS)
    console.log(
      `| ${label} | ${Math.round(perSecond(variant))} | ${median(samples[variant].map((s) => s.p99)).toFixed(1)} | ${(perSecond(variant) / floor).toFixed(2)}× |`,
    )
  const rename = median(renames.map((r) => r.perSecond))
  const p99 = median(renames.map((r) => r.p99))
  console.log(
    `| feature renames, whole app | ${Math.round(rename)} | ${p99.toFixed(1)} | ${(rename / floor).toFixed(2)}× |`,
  )
  const verdict = (ok) => (ok ? 'met' : 'MISSED')
  console.log(
    `\napp /healthz ≥ 0.8× the handler: ${(perSecond('app') / floor).toFixed(2)}× ${verdict(perSecond('app') / floor >= 0.8)}; ` +
      `renames ≥ 0.5×: ${(rename / floor).toFixed(2)}× ${verdict(rename / floor >= 0.5)}; renames p99 ≤ 60 ms: ${p99.toFixed(1)} ms ${verdict(p99 <= 60)}`,
  )
  if (samples['app-metrics']?.length && samples.app?.length)
    console.log(
      `/metrics on (request timing by route pattern): ${(perSecond('app-metrics') / perSecond('app')).toFixed(3)}× the app's /healthz without it`,
    )
  console.log(`load average: ${load}`)
}
