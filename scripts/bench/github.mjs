// BENCH_ONLY=github (issue "GitHub Issues sync"): against the fake GitHub on loopback
// (tests/support/fake-github.ts, loaded through tsx), with the real Octokit in the app:
//   - `Send to GitHub` of a 200-feature release (one issue each), and then 200 renames of those
//     features reaching their issues through the outbox;
//   - one poll of a 1,000-issue repository where nothing changed: the target is one request
//     (a 304, free of GitHub's rate limit) and no write to the database; and one where one issue changed;
//   - the bare baseline: the same creates, updates and a conditional list straight from Octokit to
//     the fake, no app in between (the app's figures are given as ratios to it).
import Database from 'better-sqlite3'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Octokit } from '@octokit/rest'
import { register } from 'tsx/esm/api'
import { ApiClient } from './seed.mjs'
import { startApp } from './servers.mjs'

const REPO = 'bench/shop'
const RELEASE_FEATURES = 200
const REPO_ISSUES = 1000
const POLL_SECONDS = 2
const uuid = () => crypto.randomUUID()

async function loadFake() {
  const unregister = register()
  try {
    return (await import('../../tests/support/fake-github.ts')).FakeGithub
  } finally {
    await unregister()
  }
}

async function until(check, ms = 60_000) {
  const deadline = Date.now() + ms
  for (;;) {
    const value = await check()
    if (value) return value
    if (Date.now() > deadline) throw new Error('timed out')
    await new Promise((r) => setTimeout(r, 20))
  }
}

/** A map with one release of 200 features (4 activities × 50). */
async function seedRelease(client) {
  const ids = { project: uuid(), goal: uuid(), release: uuid(), activities: [uuid(), uuid(), uuid(), uuid()] }
  await client.call('POST', `/v1/projects/${ids.project}`, { title: 'GitHub bench' })
  await client.call('POST', `/v1/workflows/${ids.goal}`, { projectId: ids.project, title: 'Shop' })
  await client.call('POST', `/v1/milestones/${ids.release}`, { projectId: ids.project, title: 'MVP' })
  for (const [i, id] of ids.activities.entries())
    await client.call('POST', `/v1/subworkflows/${id}`, { workflowId: ids.goal, title: `Activity ${i + 1}` })
  const features = []
  for (let i = 0; i < RELEASE_FEATURES; i++) {
    const id = uuid()
    features.push(id)
    await client.call('POST', `/v1/features/${id}`, {
      milestoneId: ids.release,
      subWorkflowId: ids.activities[i % 4],
      title: `Feature ${i + 1}`,
    })
  }
  return { ...ids, features }
}

/**
 * The bare baseline: what the same GitHub calls cost with no app in between (Octokit straight to
 * the fake, sequential, as the app makes them): 200 creates with a body like the app's, 200
 * title updates, and conditional lists of the 1,000-issue repository answered 304.
 */
async function bareBaseline(github) {
  const repo = 'bench/bare'
  github.addRepo(repo)
  github.addToken('github_pat_bare', [repo, REPO])
  const quiet = () => {}
  const octokit = new Octokit({
    auth: 'github_pat_bare',
    baseUrl: github.url,
    log: { debug: quiet, info: quiet, warn: console.warn, error: console.error },
  })
  const [owner, name] = repo.split('/')
  const body = `---\nStory map: http://127.0.0.1:3000/ws/projects/${uuid()}/f/${uuid()} · MVP · Shop › Activity 1`
  let started = performance.now()
  const numbers = []
  for (let i = 0; i < RELEASE_FEATURES; i++)
    numbers.push(
      (await octokit.rest.issues.create({ owner, repo: name, title: `Feature ${i + 1}`, body })).data.number,
    )
  const createMs = performance.now() - started
  started = performance.now()
  for (const number of numbers)
    await octokit.rest.issues.update({ owner, repo: name, issue_number: number, title: `Renamed ${number}` })
  const updateMs = performance.now() - started
  const [o, r] = REPO.split('/')
  const list = {
    owner: o,
    repo: r,
    state: 'all',
    sort: 'updated',
    direction: 'asc',
    per_page: 100,
    since: new Date().toISOString(),
  }
  const { headers } = await octokit.rest.issues.listForRepo(list)
  const samples = []
  for (let i = 0; i < 21; i++) {
    const at = performance.now()
    await octokit.rest.issues
      .listForRepo({ ...list, headers: { 'if-none-match': headers.etag } })
      .catch((e) => {
        if (e.status !== 304) throw e
      })
    samples.push(performance.now() - at)
  }
  samples.sort((a, b) => a - b)
  return { createMs, updateMs, notModifiedMs: samples[10] }
}

const dataVersion = (db) => db.prepare('pragma data_version').pluck().get()
const issueCalls = (github) =>
  github.calls.filter((c) => c.method === 'GET' && c.path === `/repos/${REPO}/issues`)

export async function benchGithub(step) {
  const FakeGithub = await loadFake()
  const github = await new FakeGithub().start()
  github.addRepo(REPO)
  github.addToken('github_pat_bench', [REPO])
  for (let i = 0; i < REPO_ISSUES - RELEASE_FEATURES; i++)
    github.seedIssue(REPO, { title: `Existing issue ${i + 1}`, labels: i % 3 ? [] : ['bug'] })
  step('the bare baseline: the same calls straight from Octokit')
  const bare = await bareBaseline(github)
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'storymap-bench-github-'))
  const app = await startApp({
    databaseDir: dir,
    extraEnv: { GITHUB_API_URL: github.url, GITHUB_POLL_SECONDS: String(POLL_SECONDS) },
  })
  try {
    const client = new ApiClient(app.url)
    await client.signUp()
    step(`seeding a release of ${RELEASE_FEATURES} features`)
    const map = await seedRelease(client)
    await client.call('PUT', `/v1/projects/${map.project}/github`, {
      repository: REPO,
      token: 'github_pat_bench',
    })
    const versionBefore = (await client.call('GET', `/v1/projects/${map.project}`)).json.version

    step(`Send to GitHub: ${RELEASE_FEATURES} features`)
    const callsBefore = github.calls.length
    const started = performance.now()
    const sent = (await client.call('POST', `/v1/milestones/${map.release}/github`)).json
    const pushMs = performance.now() - started
    const pushCalls = github.calls.length - callsBefore
    const versionAfter = (await client.call('GET', `/v1/projects/${map.project}`)).json.version

    step(`renaming the ${RELEASE_FEATURES} linked features; waiting for their issues`)
    const renameStarted = performance.now()
    let renameMs = 0
    for (const [i, id] of map.features.entries())
      await client.call('POST', `/v1/features/${id}/rename`, { title: `Renamed ${i + 1}` })
    renameMs = performance.now() - renameStarted
    await until(
      () => github.issues(REPO).filter((i) => i.title.startsWith('Renamed ')).length === RELEASE_FEATURES,
    )
    const outboxMs = performance.now() - renameStarted

    step(`polls of a ${github.issues(REPO).length}-issue repository`)
    // Let the polls settle on the cursor the renames left (a 304 comes once nothing changed).
    await until(() => issueCalls(github).at(-1)?.status === 304, 30_000)
    const db = new Database(path.join(dir, 'storymap.db'), { readonly: true })
    const quiet = await measurePoll(github, db)
    const linked = REPO_ISSUES - RELEASE_FEATURES + 1
    github.edit(REPO, linked, { title: 'Changed on GitHub' })
    const changed = await measurePoll(github, db)
    changed.pulled = (await client.call('GET', `/v1/projects/${map.project}`)).json.features.some(
      (f) => f.title === 'Changed on GitHub',
    )
    db.close()
    return {
      sent,
      pushMs,
      pushCalls,
      changes: versionAfter - versionBefore,
      renameMs,
      outboxMs,
      quiet,
      changed,
      issues: github.issues(REPO).length,
      bare,
    }
  } finally {
    await app.stop()
    await github.stop()
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

/** Waits for the next poll and reports its requests, their statuses and cost, and the database commits around it. */
async function measurePoll(github, db) {
  const seen = issueCalls(github).length
  const costlyBefore = github.costly
  const versionBefore = dataVersion(db)
  await until(
    () => issueCalls(github).length > seen && issueCalls(github).at(-1).status !== 0,
    POLL_SECONDS * 3000,
  )
  // The poll's other pages, if any, and its writes.
  await new Promise((r) => setTimeout(r, 300))
  const calls = issueCalls(github).slice(seen)
  return {
    requests: calls.length,
    statuses: calls.map((c) => c.status),
    rateLimitCost: github.costly - costlyBefore,
    commits: dataVersion(db) - versionBefore,
  }
}

export function printGithub(r, load, calibrationMs) {
  const { bare } = r
  console.log('\n## GitHub Issues sync (fake GitHub on loopback, real Octokit)\n')
  console.log(
    `Send to GitHub, ${RELEASE_FEATURES}-feature release: ${r.sent.created} issues in ${(r.pushMs / 1000).toFixed(2)} s ` +
      `(${(r.pushMs / r.sent.created).toFixed(1)} ms per issue), ${r.pushCalls} requests to GitHub, ${r.changes} map changes, ${r.sent.failed.length} failed; ` +
      `bare Octokit creates ${(bare.createMs / 1000).toFixed(2)} s, so ${(r.pushMs / bare.createMs).toFixed(2)}× bare`,
  )
  console.log(
    `${RELEASE_FEATURES} renames of linked features: answered in ${(r.renameMs / 1000).toFixed(2)} s; ` +
      `every issue renamed ${(r.outboxMs / 1000).toFixed(2)} s after the first rename (target: each within 10 s); ` +
      `bare Octokit updates ${(bare.updateMs / 1000).toFixed(2)} s, so ${(r.outboxMs / bare.updateMs).toFixed(2)}× bare`,
  )
  const line = (label, p) =>
    `${label}: ${p.requests} request(s) (${p.statuses.join(', ')}), rate-limit cost ${p.rateLimitCost}, database commits ${p.commits}`
  console.log(
    `${line(`poll of a ${r.issues}-issue repository, nothing changed`, r.quiet)} (target: 1 request, no writes); ` +
      `bare Octokit conditional list (304): ${bare.notModifiedMs.toFixed(1)} ms (median of 21)`,
  )
  console.log(
    `${line('poll after one linked issue changed on GitHub', r.changed)}; the feature renamed: ${r.changed.pulled ? 'yes' : 'no'}`,
  )
  console.log(`load average: ${load}; core speed (10⁸ additions): ${Math.round(calibrationMs)} ms`)
}
