// What the capacity bench reads besides its own requests: the server's event-loop delay and
// memory (from its /metrics when it has one, CONTRACT §5, else from outside: a /healthz round trip
// every 100 ms and /proc), the server's CPU time, and the load generator's own loop and CPU, so
// that a saturated client is named and not blamed on the server.
import { execSync } from 'node:child_process'
import fs from 'node:fs'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { singleConnection, send } from './capacity-http.mjs'
import { percentile } from './http-load.mjs'
import { rssMegabytes } from './servers.mjs'

const HEALTHZ_EVERY_MS = 100
const CLOCK_TICKS = Number(execSync('getconf CLK_TCK', { encoding: 'utf8' }).trim()) || 100

/** Seconds of CPU the process has used (user + system), from /proc/<pid>/stat. */
function cpuSeconds(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS
  } catch {
    return NaN
  }
}

/**
 * CPU seconds per kind of the server's threads: `main` (the event loop), `pages` (the niced render
 * threads, ADR 29) and `other` (V8's helper threads, libuv's pool, the WAL checkpointer).
 */
function threadCpuSeconds(pid) {
  const seconds = { main: 0, pages: 0, other: 0 }
  let tids = []
  try {
    tids = fs.readdirSync(`/proc/${pid}/task`)
  } catch {
    return seconds
  }
  for (const tid of tids) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      const used = (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS
      const kind = Number(tid) === pid ? 'main' : Number(fields[16]) > 0 ? 'pages' : 'other'
      seconds[kind] += used
    } catch {
      // the thread ended meanwhile
    }
  }
  return seconds
}

/** Prometheus text → Map of sample name (labels dropped) → value; null when it is not /metrics. */
async function scrape(origin, token) {
  if (!token) return null
  const res = await fetch(`${origin}/metrics`, { headers: { Authorization: `Bearer ${token}` } })
  const text = await res.text()
  if (res.status !== 200 || !(res.headers.get('content-type') ?? '').startsWith('text/plain')) return null
  const samples = new Map()
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{[^}]*\})? (\S+)/.exec(line)
    if (match && !samples.has(match[1])) samples.set(match[1], Number(match[2]))
  }
  return samples.has('nodejs_eventloop_lag_p99_seconds') ? samples : null
}

/**
 * The server side of a window: `begin()`, then `end()` → its figures, each with where it came
 * from. With /metrics, prom-client's loop-delay histogram is reset by every scrape, so the
 * scrape at the window's end covers the window (the one at its start clears what came before).
 */
export async function serverProbe({ origin, pid, metricsToken }) {
  const metrics = (await scrape(origin, metricsToken)) !== null
  const agent = singleConnection()
  let healthz = null
  let timer = null
  let cpuAt = null
  let rssSamples = []
  const tick = async () => {
    if (healthz.inFlight) return
    healthz.inFlight = true
    const answer = await send(`${origin}/healthz`, { agent, timeoutMs: 10_000 })
    healthz.inFlight = false
    if (answer.status === 200) healthz.ms.push(answer.ms)
    else healthz.errors += 1
  }
  let ticks = 0
  return {
    metrics,
    loopSource: metrics
      ? '/metrics nodejs_eventloop_lag_p99_seconds'
      : '/healthz round trip every 100 ms (proxy: no /metrics)',
    rssSource: metrics ? '/metrics process_resident_memory_bytes' : '/proc/<pid>/status VmRSS',
    async begin() {
      if (metrics) await scrape(origin, metricsToken)
      healthz = { ms: [], errors: 0, inFlight: false }
      rssSamples = []
      cpuAt = { cpu: cpuSeconds(pid), threads: threadCpuSeconds(pid), at: performance.now() }
      timer = setInterval(() => {
        // RSS each second (one sample moves with the compressions in flight: ±10 MB); the round trip every tick
        if (ticks++ % 10 === 0) rssSamples.push(rssMegabytes(pid))
        tick()
      }, HEALTHZ_EVERY_MS)
    },
    async end() {
      clearInterval(timer)
      const seconds = (performance.now() - cpuAt.at) / 1000
      const cpuShare = (cpuSeconds(pid) - cpuAt.cpu) / seconds
      const threads = threadCpuSeconds(pid)
      // A thread that ended within the window is left out; the total above has it.
      const threadShares = Object.fromEntries(
        Object.entries(threads).map(([kind, used]) => [
          kind,
          Math.max(0, used - cpuAt.threads[kind]) / seconds,
        ]),
      )
      const scraped = metrics ? await scrape(origin, metricsToken) : null
      const rss = scraped ? scraped.get('process_resident_memory_bytes') / 1024 ** 2 : rssMegabytes(pid)
      return {
        metrics: scraped !== null,
        cpuShare,
        threadShares,
        loopP99Ms: scraped
          ? scraped.get('nodejs_eventloop_lag_p99_seconds') * 1000
          : percentile(healthz.ms, 99),
        healthzP50: percentile(healthz.ms, 50),
        healthzP99: percentile(healthz.ms, 99),
        healthzMax: healthz.ms.length ? Math.max(...healthz.ms) : NaN,
        healthzErrors: healthz.errors,
        rssMb: rss,
        // The main thread's V8 heap (prom-client sees no other thread's): the rest of RSS is the page
        // threads' heaps, SQLite's caches, sockets and code.
        mainHeapMb: scraped ? scraped.get('nodejs_heap_size_total_bytes') / 1024 ** 2 : NaN,
        rssPeakMb: Math.max(...rssSamples, rss),
        rssMeanMb: [...rssSamples, rss].reduce((sum, mb) => sum + mb, 0) / (rssSamples.length + 1),
      }
    },
  }
}

/** The load generator's own event-loop delay and CPU over a window. */
export function clientProbe() {
  const delay = monitorEventLoopDelay({ resolution: 10 })
  delay.enable()
  let cpu = null
  let at = 0
  return {
    begin() {
      delay.reset()
      cpu = process.cpuUsage()
      at = performance.now()
    },
    end() {
      const used = process.cpuUsage(cpu)
      return {
        loopP99Ms: delay.percentile(99) / 1e6,
        loopMaxMs: delay.max / 1e6,
        cpuShare: (used.user + used.system) / 1000 / (performance.now() - at),
      }
    },
  }
}

/** The soft limit on open files of this process (and of the app, its child). */
export function openFileLimit() {
  try {
    return Number(execSync('ulimit -n', { encoding: 'utf8', shell: '/bin/sh' }).trim())
  } catch {
    return NaN
  }
}
