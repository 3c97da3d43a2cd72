// The import figure of npm run bench (issue "Import and export"): a 20,000-card map (the most an
// import takes) posted to POST /v1/projects/import as a storymap.csv, and again as JSON, on an app
// of its own. BENCH_ONLY=import measures only this (a few seconds instead of minutes).
import { stringify } from 'csv-stringify/sync'
import { describeMachine, formatTable, loadAverage } from './report.mjs'
import { ApiClient } from './seed.mjs'
import { startApp } from './servers.mjs'

export const IMPORT_SHAPE = { goals: 20, activitiesPerGoal: 5, releases: 20, cards: 20_000 }

// storymap.csv's columns as app/features/transfer/csv-cells.ts names them (this script runs without the TS build).
const CSV_COLUMNS = [
  'release_title',
  'goal_title',
  'activity_title',
  'feature_title',
  'feature_description',
  'feature_status',
  'feature_color',
  'feature_annotations',
  'feature_size',
]
const pad = (n) => String(n + 1).padStart(2, '0')

/** A storymap.csv of exactly IMPORT_SHAPE.cards cards (goals + activities + releases + features). */
export function importCsv() {
  const { goals, activitiesPerGoal, releases, cards } = IMPORT_SHAPE
  const features = cards - goals - goals * activitiesPerGoal - releases
  const rows = []
  for (let i = 0; i < features; i++) {
    const goal = i % goals
    const activity = Math.floor(i / goals) % activitiesPerGoal
    const release = Math.floor(i / (goals * activitiesPerGoal)) % releases
    rows.push([
      `Release ${pad(release)}`,
      `Goal ${pad(goal)}`,
      `Activity ${pad(goal)}.${activity + 1}`,
      `As a shopper I can do task ${i + 1}`,
      i % 10 === 0
        ? 'Acceptance: the shopper sees the result at once, with "quotes", commas\nand lines.'
        : '',
      i % 7 === 0 ? 'CLOSED' : 'OPEN',
      i % 3 === 0 ? 'BLUE' : '',
      i % 5 === 0 ? 'RISKY,IDEA' : '',
      i % 13,
    ])
  }
  return stringify(rows, {
    header: true,
    columns: CSV_COLUMNS,
    quoted: true,
    record_delimiter: '\r\n',
  })
}

const IGNORED = [
  'kind',
  'workspaceId',
  'projectId',
  'createdAt',
  'createdBy',
  'createdByName',
  'lastModified',
  'lastModifiedByName',
]

/**
 * A full export of 20,000 cards is about 12 MB, over the import's 10 MB: the JSON figure is
 * taken on the same map without the card fields an import ignores (times, authors, kinds).
 */
function withoutIgnoredFields(exportText) {
  const file = JSON.parse(exportText)
  for (const list of ['milestones', 'workflows', 'subWorkflows', 'features']) {
    file[list] = file[list].map((card) =>
      Object.fromEntries(Object.entries(card).filter(([k]) => !IGNORED.includes(k))),
    )
  }
  return JSON.stringify(file)
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]

async function timedImport(client, body, contentType, title) {
  const started = performance.now()
  const res = await fetch(`${client.baseUrl}/v1/projects/import?title=${encodeURIComponent(title)}`, {
    method: 'POST',
    headers: client.headers({ 'Content-Type': contentType }),
    body,
  })
  const text = await res.text()
  const ms = performance.now() - started
  if (res.status !== 200) throw new Error(`import: ${res.status} ${text.slice(0, 300)}`)
  return { ms, project: JSON.parse(text).project }
}

/** Median of `runs` imports of the CSV, then of the same map's JSON export; the load average right after. */
export async function measureImport(client, runs = 3) {
  const csv = importCsv()
  const csvTimes = []
  let project
  for (let i = 0; i < runs; i++) {
    const run = await timedImport(client, csv, 'text/csv', `Import ${i + 1}`)
    csvTimes.push(run.ms)
    project = run.project
  }
  const exported = await client.call('GET', `/v1/projects/${project.id}/export`)
  const json = withoutIgnoredFields(exported.text)
  const jsonTimes = []
  for (let i = 0; i < runs; i++) {
    jsonTimes.push((await timedImport(client, json, 'application/json', `JSON import ${i + 1}`)).ms)
  }
  return {
    csvMs: median(csvTimes),
    jsonMs: median(jsonTimes),
    csvBytes: Buffer.byteLength(csv),
    exportBytes: Buffer.byteLength(exported.text),
    jsonBytes: Buffer.byteLength(json),
    load: loadAverage(),
  }
}

/** Starts the built app on a fresh database, measures the import, stops it. */
export async function benchImport(step) {
  step('import: 20,000 cards as CSV, then as JSON, three times each, on a fresh app')
  const app = await startApp()
  try {
    const client = new ApiClient(app.url)
    await client.signUp()
    return await measureImport(client)
  } finally {
    await app.stop()
  }
}

/** The line printed under the table: the load average the figure was taken at, and the export's size. */
export const importLine = (r) =>
  `import of 20,000 cards: load average right after: ${r.load}; the full JSON export of that map is ` +
  `${(r.exportBytes / 1024 / 1024).toFixed(1)} MB (the JSON figure leaves out the card times and authors an import ignores)`

/** BENCH_ONLY=import: the import figures alone. */
export function printImportOnly(r, loadAtStart) {
  const machine = describeMachine()
  console.log(`\nStorymap import benchmark, ${new Date().toISOString()}`)
  console.log(
    `machine: ${machine.cpu}, ${machine.cores} cores; Node ${machine.node}; load average at start: ${loadAtStart}\n`,
  )
  console.log(formatTable(importRows(r)))
  console.log(importLine(r))
}

/** The import's rows of the result table: [what, figure, target, met]. */
export function importRows(r) {
  const kb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`
  return [
    [
      `POST /v1/projects/import: 20,000 cards, CSV (${kb(r.csvBytes)}), median of 3`,
      `${r.csvMs.toFixed(0)} ms`,
      '≤ 5,000 ms',
      r.csvMs <= 5000,
    ],
    [
      `POST /v1/projects/import: the same map as JSON (${kb(r.jsonBytes)}, see below)`,
      `${r.jsonMs.toFixed(0)} ms`,
      '≤ 5,000 ms',
      r.jsonMs <= 5000,
    ],
  ]
}
