// The benchmark's printed tables: each figure beside its target (issues #8, #11, #13, #14, #15), met or missed.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'

/** The machine and its load, for docs/benchmarks.md. */
export function describeMachine() {
  const cpu = /model name\s*:\s*(.*)/.exec(safeRead('/proc/cpuinfo'))?.[1] ?? os.cpus()[0]?.model ?? 'unknown'
  const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
  const chromium = spawnSync(chromiumPath, ['--version'], { encoding: 'utf8' }).stdout?.trim() || 'unknown'
  return {
    cpu,
    cores: os.availableParallelism(),
    ramGb: (os.totalmem() / 1024 ** 3).toFixed(1),
    node: process.version,
    chromium,
    os: `${os.type()} ${os.release()}`,
  }
}

/** Milliseconds of a fixed JavaScript loop (10⁸ additions): how fast this machine's cores are today. */
export function cpuCalibration() {
  const start = performance.now()
  let sum = 0
  for (let i = 0; i < 1e8; i++) sum += i
  return { ms: performance.now() - start, sum }
}

export const loadAverage = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')

function safeRead(file) {
  try {
    return fs.readFileSync(file, 'utf8')
  } catch {
    return ''
  }
}

const ms = (n) => `${n.toFixed(1)} ms`
const perSecond = (n) => `${Math.round(n).toLocaleString('en')}/s`

function cpuTimes() {
  const fields = safeRead('/proc/stat').split('\n')[0].trim().split(/\s+/).slice(1).map(Number)
  return { idle: (fields[3] ?? 0) + (fields[4] ?? 0), total: fields.reduce((sum, n) => sum + n, 0) }
}

/**
 * The share of the cores other programs used over `ms` while the bench itself sat still (no app,
 * no browser): the machine's own business. The load average cannot tell it apart from the
 * bench's work (the bench keeps both cores busy, so the load after a size is always high).
 */
export async function othersShare(ms = 2000) {
  const before = cpuTimes()
  await new Promise((resolve) => setTimeout(resolve, ms))
  const after = cpuTimes()
  const total = after.total - before.total
  return total > 0 ? 1 - (after.idle - before.idle) / total : null
}

/** Other programs using more than this share of the cores before a size mark its figures as a busy machine's. */
const BUSY_SHARE = 0.25
export const othersBusy = (share) => share !== null && share > BUSY_SHARE
export const percent = (share) => (share === null ? 'unknown' : `${Math.round(share * 100)} %`)

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`
const ratio = (a, b) => `${(a / b).toFixed(2)}×`

/** The HTTP rows: the read as a browser asks and uncompressed, renames, the framework alone. */
function httpRows(r) {
  if (!r.read) return []
  const browserRatio = r.browserRead.perSecond / r.browserBare.perSecond
  return [
    [
      `GET /v1/projects/{id} as a browser asks (${r.browserEncoding}): p50, sequential`,
      ms(r.browserReadLatency.p50),
      '≤ 15 ms',
      r.browserReadLatency.p50 <= 15,
    ],
    ['same: p95, sequential', ms(r.browserReadLatency.p95), '', null],
    ['same: 20 concurrent, 10 s', perSecond(r.browserRead.perSecond), '', null],
    [
      'bare node:http, the same compressed bytes: 20 concurrent, 10 s',
      perSecond(r.browserBare.perSecond),
      '',
      null,
    ],
    ['read as a browser asks ÷ bare server', `${browserRatio.toFixed(2)}×`, '≥ 0.5×', browserRatio >= 0.5],
    [
      'GET /v1/projects/{id} uncompressed: p50 / p95, sequential',
      `${ms(r.readLatency.p50)} / ${ms(r.readLatency.p95)}`,
      '',
      null,
    ],
    [
      'same, right after a write: p50 / p95',
      `${ms(r.readAfterWrite.p50)} / ${ms(r.readAfterWrite.p95)}`,
      '',
      null,
    ],
    [
      'same: 20 concurrent, 10 s ÷ bare server with its bytes',
      `${perSecond(r.read.perSecond)} ÷ ${perSecond(r.bare.perSecond)} = ${ratio(r.read.perSecond, r.bare.perSecond)}`,
      '',
      null,
    ],
    [
      'feature rename: 20 concurrent, 10 s',
      perSecond(r.rename.perSecond),
      '≥ 1,200/s',
      r.rename.perSecond >= 1200,
    ],
    ['feature rename: p99', ms(r.rename.p99), '≤ 40 ms', r.rename.p99 <= 40],
    [
      'GET /healthz (the whole stack, no work): 20 concurrent, 10 s',
      perSecond(r.healthz.perSecond),
      '≥ 2,000/s',
      r.healthz.perSecond >= 2000,
    ],
    [
      "bare node:http, the same answer: 20 concurrent, 10 s (the machine's speed today)",
      perSecond(r.healthzBare.perSecond),
      '',
      null,
    ],
    [
      'healthz ÷ bare server; renames ÷ bare server',
      `${ratio(r.healthz.perSecond, r.healthzBare.perSecond)}; ${ratio(r.rename.perSecond, r.healthzBare.perSecond)}`,
      '',
      null,
    ],
  ]
}

/**
 * Rows of [what, figure, target, met]; `met` is null for figures without a target. The board's
 * load is judged against the static copy of its HTML loaded in the same run (issue #15); the drop
 * and the search key have absolute targets: 100 ms up to 4,000 features, 150 ms at 10,000.
 */
export function resultRows(r) {
  const { board } = r
  const features = r.shape.features
  const quick = features <= 4000 ? 100 : 150
  const cardsRatio = board.cardsInPage / board.staticCardsInPage
  const hydratedRatio = board.hydrated / board.staticCardsInPage
  const rssTarget = features <= 4000 ? 160 : 250
  return [
    ...httpRows(r),
    [
      `static copy of the board's HTML, no script (bare node:http): all cards in the page`,
      ms(board.staticCardsInPage),
      '',
      null,
    ],
    [
      `board: all ${features.toLocaleString('en')} cards in the page`,
      `${ms(board.cardsInPage)} (${ratio(board.cardsInPage, board.staticCardsInPage)})`,
      '≤ 1.5× static',
      cardsRatio <= 1.5,
    ],
    [
      'board: all cards hydrated (draggable)',
      `${ms(board.hydrated)} (${ratio(board.hydrated, board.staticCardsInPage)})`,
      '≤ 2.5× static',
      hydratedRatio <= 2.5,
    ],
    [
      'board: hydrated, after all cards were in the page (median of the loads; Featmap: cards active as they show)',
      ms(board.hydrationLead),
      '≤ 1,000 ms',
      board.hydrationLead <= 1000,
    ],
    [
      'board: drop to card shown in new cell (median)',
      ms(board.dropShown),
      `≤ ${quick} ms`,
      board.dropShown <= quick,
    ],
    [
      'board: search key to filtered board shown (median)',
      ms(board.searchShown),
      `≤ ${quick} ms`,
      board.searchShown <= quick,
    ],
    ['board: search key to filtered board shown (slowest)', ms(board.searchWorst), '', null],
    [
      'board: a card clicked as soon as the cards show: its dialog, after hydration (median)',
      `${ms(board.earlyClickAfterHydration)} (${ms(board.earlyClickShown)} after the click)`,
      '≤ 1,000 ms',
      board.earlyClickAfterHydration <= 1000,
    ],
    ['board route JavaScript, gzip', kb(board.jsGzip), '≤ 180 KB', board.jsGzip / 1024 <= 180],
    ['server RSS after the load', `${r.rss.toFixed(0)} MB`, `≤ ${rssTarget} MB`, r.rss <= rssTarget],
    ['server RSS after 12 s idle', `${r.rssSettled.toFixed(0)} MB`, '', null],
    ...liveRows(r),
  ]
}

/** How each cost grows with the map: one column per size measured. */
export function growthTable(runs) {
  const rows = [
    [
      'project JSON (uncompressed / as a browser gets it)',
      (r) => (r.bundleBytes ? `${kb(r.bundleBytes)} / ${kb(r.compressedBytes)}` : '–'),
    ],
    ['read as a browser asks: p50', (r) => (r.browserReadLatency ? ms(r.browserReadLatency.p50) : '–')],
    [
      'read as a browser asks ÷ bare server',
      (r) => (r.browserRead ? ratio(r.browserRead.perSecond, r.browserBare.perSecond) : '–'),
    ],
    ['static copy: all cards in the page', (r) => ms(r.board.staticCardsInPage)],
    [
      'board: all cards in the page (÷ static)',
      (r) => `${ms(r.board.cardsInPage)} (${ratio(r.board.cardsInPage, r.board.staticCardsInPage)})`,
    ],
    [
      'board: hydrated (÷ static)',
      (r) => `${ms(r.board.hydrated)} (${ratio(r.board.hydrated, r.board.staticCardsInPage)})`,
    ],
    ['drop shown (median)', (r) => ms(r.board.dropShown)],
    ['search key (median / slowest)', (r) => `${ms(r.board.searchShown)} / ${ms(r.board.searchWorst)}`],
    ['feature rename, 20 concurrent', (r) => (r.rename ? perSecond(r.rename.perSecond) : '–')],
    [
      'server RSS after the load / after 12 s idle',
      (r) => `${r.rss.toFixed(0)} / ${r.rssSettled.toFixed(0)} MB`,
    ],
    ['other programs before the size (share of the cores)', (r) => percent(r.machineBefore.others)],
    ['core speed before the size (10⁸ additions)', (r) => `${Math.round(r.machineBefore.loopMs)} ms`],
    ['load average after the size (mostly the bench)', (r) => r.load.split(' ')[0]],
  ]
  const header = ['measure', ...runs.map((r) => `${r.shape.features.toLocaleString('en')} features`)]
  return markdownTable([header, ...rows.map(([name, value]) => [name, ...runs.map(value)])])
}

/** The live board's figures (issue "Live board"). */
export function liveRows({ fanout, renameLive, rename }) {
  if (!fanout) return []
  const ratio = renameLive.perSecond / rename.perSecond
  return [
    [
      `live: rename response → event at each of ${fanout.streams.toLocaleString('en')} streams, p50`,
      ms(fanout.p50),
      '≤ 100 ms',
      fanout.p50 <= 100,
    ],
    [
      `live: same, p99 (${fanout.missed} events missed)`,
      ms(fanout.p99),
      '≤ 500 ms',
      fanout.p99 <= 500 && fanout.missed === 0,
    ],
    [
      'live: rename request sent → event at each stream, p50 / p99',
      `${ms(fanout.sentP50)} / ${ms(fanout.sentP99)}`,
      '',
      null,
    ],
    [
      'live: server RSS with those streams open',
      `${fanout.rssWithStreams.toFixed(0)} MB`,
      '≤ 250 MB',
      fanout.rssWithStreams <= 250,
    ],
    ['live: feature rename, no stream open', perSecond(rename.perSecond), '', null],
    ['live: feature rename with 200 streams open', perSecond(renameLive.perSecond), '', null],
    ['live: rename with 200 streams ÷ without', `${ratio.toFixed(2)}×`, '≥ 0.8×', ratio >= 0.8],
  ]
}

/** The result rows as a table, with met or MISSED beside each target. */
export function formatTable(rows) {
  return markdownTable([
    ['measure', 'result', 'target', ''],
    ...rows.map(([a, b, c, met]) => [a, b, c, met === null ? '' : met ? 'met' : 'MISSED']),
  ])
}

/** A Markdown table (readable in a terminal too); the first row is the header. */
function markdownTable(cells) {
  const widths = cells[0].map((_, i) => Math.max(...cells.map((row) => row[i].length)))
  const line = (row) => `| ${row.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`
  return [
    line(cells[0]),
    `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`,
    ...cells.slice(1).map(line),
  ].join('\n')
}
