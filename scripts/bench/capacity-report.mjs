// The capacity bench's printed tables (issue 34): a row per step of the ramp and the verdict, or
// the big-board comparison and its ratios. Sources of the server's figures are named.
import { BARS } from './capacity.mjs'
import { TEAM_SHAPE } from './capacity-teams.mjs'

const ms = (n) => (Number.isFinite(n) ? `${n.toFixed(n < 10 ? 1 : 0)} ms` : '–')
const share = (n) => `${Math.round(n * 100)} %`
const rate = (n) => `${n.toFixed(n < 10 ? 1 : 0)}/s`

function markdownTable(cells) {
  const widths = cells[0].map((_, i) => Math.max(...cells.map((row) => String(row[i]).length)))
  const line = (row) => `| ${row.map((c, i) => String(c).padEnd(widths[i])).join(' | ')} |`
  return [
    line(cells[0]),
    `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`,
    ...cells.slice(1).map(line),
  ].join('\n')
}

function errorsText(r) {
  if (r.errorCount === 0) return '0'
  const parts = Object.entries(r.errors)
    .filter(([, n]) => n > 0)
    .map(([kind, n]) => `${n} ${kind}`)
  return parts.join(', ')
}

/** The server's CPU, and how it splits between its main thread, its page threads and the rest. */
function cpuCell(server) {
  const t = server.threadShares
  if (!t) return share(server.cpuShare)
  return `${share(server.cpuShare)} (main ${share(t.main)}, pages ${share(t.pages)}, other ${share(t.other)})`
}

/** The columns both modes share, for one measured window. */
function windowCells(r) {
  return [
    `${rate(r.writesPerSecond)} of ${rate(r.offeredPerSecond)}`,
    `${ms(r.writeP50)} / ${ms(r.writeP99)}`,
    `${ms(r.lagP50)} / ${ms(r.lagP99)}`,
    `${rate(r.loadsPerSecond)}, p99 ${ms(r.loadP99)}`,
    errorsText(r),
    cpuCell(r.server),
    `${ms(r.server.loopP99Ms)} (${r.server.metrics ? '/metrics' : '/healthz proxy'})`,
    `${ms(r.server.healthzP99)} (max ${ms(r.server.healthzMax)})`,
    `${Math.round(r.server.rssMb)} MB (mean ${Math.round(r.server.rssMeanMb)}, peak ${Math.round(r.server.rssPeakMb)}; ${r.server.metrics ? `/metrics; main heap ${Math.round(r.server.mainHeapMb)} MB` : '/proc'})`,
    `${ms(r.client.loopP99Ms)}, ${share(r.client.cpuShare)}${r.clientSaturated ? ' SATURATED' : ''}`,
  ]
}

const WINDOW_HEADER = [
  'writes/s done of offered',
  'write p50 / p99',
  'event lag p50 / p99',
  'board loads',
  'errors',
  'server CPU',
  'server loop p99',
  '/healthz p99',
  'server RSS',
  'load gen loop p99, CPU',
]

export function printSources({ sources, idle, resent }) {
  console.log(`server loop delay from: ${sources.loop}; RSS from: ${sources.rss}`)
  if (idle)
    console.log(
      `/healthz round trip with the server idle: p50 ${ms(idle.healthzP50)}, p99 ${ms(idle.healthzP99)}; RSS ${Math.round(idle.rssMb)} MB`,
    )
  console.log(
    'server CPU: share of one core (/proc/<pid>/stat; 2 cores = 200 %), split by thread (/proc/<pid>/task: the event ' +
      'loop, the niced page threads, and the rest: V8 helper threads, libuv pool, WAL checkpointer). Load gen: its own loop (monitorEventLoopDelay) ' +
      'and CPU; SATURATED when above 85 % of a core or a 50 ms loop p99 (its latencies are then upper bounds).',
  )
  console.log(
    `requests sent again on a new connection because the server had closed their kept-alive one (as browsers do): ${resent}`,
  )
}

/** The line printed as each step ends, so a long ramp shows its progress. */
export function stepLine(s) {
  return (
    `${s.teams} teams: ${rate(s.writesPerSecond)} writes, p99 ${ms(s.writeP99)}, lag p99 ${ms(s.lagP99)}, ` +
    `${s.errorCount} errors, server CPU ${share(s.server.cpuShare)} — ${s.holds ? 'holds' : 'MISSES the bars'}`
  )
}

export function printCapacity(results, options) {
  const { steps } = results
  console.log(
    `\n## Capacity: teams of ${TEAM_SHAPE.members} members on a 300-card map, a write per member every 10 s, ` +
      `a board reload every 2 min ${options.reload === 'api' ? 'through the API (GET /v1/projects/{id}, gzip/br)' : '(the page)'} ` +
      `(${options.warmupSeconds} s warm-up, ${options.stepSeconds} s measured per step)\n`,
  )
  printSources(results)
  for (const warning of results.warnings) console.log(`WARNING: ${warning}`)
  console.log('')
  const rows = steps.map((s) => [
    s.teams,
    s.members,
    ...windowCells(s),
    `${s.before.loadAverage.split(' ')[0]} / ${Math.round(s.before.loopMs)} ms`,
    s.holds ? 'holds' : 'MISSED',
  ])
  console.log(
    markdownTable([['teams', 'streams', ...WINDOW_HEADER, 'load avg / core speed before', 'bars'], ...rows]),
  )
  for (const s of steps) {
    if (s.errorSamples.length) console.log(`${s.teams} teams, first errors: ${s.errorSamples.join('; ')}`)
  }
  console.log(
    `\nseeding (s per step, through the API): ${steps.map((s) => `${s.teams}: ${s.seedSeconds.toFixed(0)}`).join(', ')}; ` +
      `write mix of the last step: ${Object.entries(steps.at(-1)?.kinds ?? {})
        .map(([k, n]) => `${k} ${n}`)
        .join(', ')}`,
  )
  const held = steps.filter((s) => s.holds).at(-1)
  const bars = `p99 write ≤ ${BARS.writeP99Ms} ms, p99 event lag ≤ ${BARS.lagP99Ms / 1000} s, no errors`
  console.log(
    held
      ? `\nCAPACITY: ${held.teams} teams (${held.members} members, ${rate(held.writesPerSecond)} writes) is the largest step that holds ${bars}` +
          (held === steps.at(-1) && steps.length === options.steps.length ? ' (the last step asked for)' : '')
      : `\nCAPACITY: no step holds ${bars}`,
  )
  const saturated = steps.filter((s) => s.clientSaturated).map((s) => s.teams)
  if (saturated.length)
    console.log(
      `the load generator was saturated at ${saturated.join(', ')} teams: those latencies include its own delay`,
    )
}

export function printBigBoard(results) {
  console.log(
    `\n## ${results.teams} teams at work while another workspace loads a 4,000-card board once a second\n`,
  )
  printSources(results)
  console.log('')
  const rows = results.phases.map((p) => [
    p.label,
    ...windowCells(p),
    p.bigLoads
      ? `${p.bigLoads}, p50 ${ms(p.bigP50)} / p99 ${ms(p.bigP99)}, ${(p.bigBytes / 1024).toFixed(0)} KB`
      : '–',
  ])
  console.log(markdownTable([['phase', ...WINDOW_HEADER, 'big board loads'], ...rows]))
  for (const p of results.phases) {
    if (p.errorSamples.length) console.log(`${p.label}, first errors: ${p.errorSamples.join('; ')}`)
  }
  const [before, page, json, after] = results.phases
  console.log(
    `\nsmall teams' p99 write without the big board: ${ms(before.writeP99)} before, ${ms(after.writeP99)} after, ` +
      `${ms(results.baselineP99)} pooled`,
  )
  for (const [what, phase] of [
    ['the board page', page],
    ['the board JSON', json],
  ]) {
    const ratio = phase.writeP99 / results.baselineP99
    console.log(
      `with ${what} once a second: p99 write ${ms(phase.writeP99)} = ${ratio.toFixed(2)}× (target ≤ 1.5×: ${ratio <= 1.5 ? 'met' : 'MISSED'})`,
    )
  }
}
