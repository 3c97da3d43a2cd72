// The benchmark's printed table: each figure beside its issue #8 target, met or missed.
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

/** Rows of [what, figure, target, met]; `met` is null for figures without a target. */
export function resultRows(r) {
  const ratio = r.read.perSecond / r.bare.perSecond
  return [
    ['GET /v1/projects/{id}: p50, sequential', ms(r.readLatency.p50), '≤ 15 ms', r.readLatency.p50 <= 15],
    ['GET /v1/projects/{id}: p95, sequential', ms(r.readLatency.p95), '', null],
    [
      'GET /v1/projects/{id} right after a write: p50 / p95',
      `${ms(r.readAfterWrite.p50)} / ${ms(r.readAfterWrite.p95)}`,
      '',
      null,
    ],
    ['GET /v1/projects/{id}: 20 concurrent, 10 s', perSecond(r.read.perSecond), '', null],
    ['bare node:http, same bytes: 20 concurrent, 10 s', perSecond(r.bare.perSecond), '', null],
    ['project read ÷ bare server', `${ratio.toFixed(2)}×`, '≥ 0.5×', ratio >= 0.5],
    [
      'feature rename: 20 concurrent, 10 s',
      perSecond(r.rename.perSecond),
      '≥ 2,000/s',
      r.rename.perSecond >= 2000,
    ],
    ['feature rename: p99', ms(r.rename.p99), '≤ 25 ms', r.rename.p99 <= 25],
    ['GET /healthz (framework alone): 20 concurrent, 10 s', perSecond(r.healthz.perSecond), '', null],
    [
      'board: all 4,000 cards in the page',
      ms(r.board.cardsInPage),
      '≤ 1,500 ms',
      r.board.cardsInPage <= 1500,
    ],
    ['board: all cards hydrated (draggable)', ms(r.board.hydrated), '', null],
    ['board: drop to card shown in new cell', ms(r.board.dropShown), '≤ 100 ms', r.board.dropShown <= 100],
    [
      'board: search key to filtered board shown (median)',
      ms(r.board.searchShown),
      '≤ 100 ms',
      r.board.searchShown <= 100,
    ],
    ['board: search key to filtered board shown (slowest)', ms(r.board.searchWorst), '', null],
    [
      'board route JavaScript, gzip',
      `${(r.board.jsGzip / 1024).toFixed(1)} KB`,
      '≤ 180 KB',
      r.board.jsGzip / 1024 <= 180,
    ],
    ['server RSS after the load', `${r.rss.toFixed(0)} MB`, '≤ 200 MB', r.rss <= 200],
    ...liveRows(r),
  ]
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
    [`live: same, p99 (${fanout.missed} events missed)`, ms(fanout.p99), '≤ 500 ms', fanout.p99 <= 500 && fanout.missed === 0],
    ['live: rename request sent → event at each stream, p50 / p99', `${ms(fanout.sentP50)} / ${ms(fanout.sentP99)}`, '', null],
    ['live: server RSS with those streams open', `${fanout.rssWithStreams.toFixed(0)} MB`, '≤ 250 MB', fanout.rssWithStreams <= 250],
    ['live: feature rename, no stream open', perSecond(rename.perSecond), '', null],
    ['live: feature rename with 200 streams open', perSecond(renameLive.perSecond), '', null],
    ['live: rename with 200 streams ÷ without', `${ratio.toFixed(2)}×`, '≥ 0.8×', ratio >= 0.8],
  ]
}

/** A Markdown table (readable in a terminal too). */
export function formatTable(rows) {
  const cells = [
    ['measure', 'result', 'target', ''],
    ...rows.map(([a, b, c, met]) => [a, b, c, met === null ? '' : met ? 'met' : 'MISSED']),
  ]
  const widths = cells[0].map((_, i) => Math.max(...cells.map((row) => row[i].length)))
  const line = (row) => `| ${row.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`
  return [
    line(cells[0]),
    `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`,
    ...cells.slice(1).map(line),
  ].join('\n')
}
