// BENCH_ONLY=trackers (issue 46, CONTRACT §14): GitLab (@gitbeaker/rest) and Jira Cloud (jira.js)
// through the connector, against the fakes on loopback (tests/support/fake-gitlab.ts and
// fake-jira.ts, loaded through tsx), per provider:
//   - `Send to tracker` of a 200-feature release (one issue each): time, requests, map changes;
//   - one poll of a 1,000-issue project where nothing changed: target one request, no database write.
import Database from 'better-sqlite3'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { register } from 'tsx/esm/api'
import { ApiClient } from './seed.mjs'
import { startApp } from './servers.mjs'

const RELEASE_FEATURES = 200
const PROJECT_ISSUES = 1000
const POLL_SECONDS = 2
const uuid = () => crypto.randomUUID()

async function loadFakes() {
  const unregister = register()
  try {
    return {
      FakeGitlab: (await import('../../tests/support/fake-gitlab.ts')).FakeGitlab,
      FakeJira: (await import('../../tests/support/fake-jira.ts')).FakeJira,
    }
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

async function seedRelease(client, title) {
  const ids = { project: uuid(), goal: uuid(), release: uuid(), activities: [uuid(), uuid(), uuid(), uuid()] }
  await client.call('POST', `/v1/projects/${ids.project}`, { title })
  await client.call('POST', `/v1/workflows/${ids.goal}`, { projectId: ids.project, title: 'Shop' })
  await client.call('POST', `/v1/milestones/${ids.release}`, { projectId: ids.project, title: 'MVP' })
  for (const [i, id] of ids.activities.entries())
    await client.call('POST', `/v1/subworkflows/${id}`, { workflowId: ids.goal, title: `Activity ${i + 1}` })
  for (let i = 0; i < RELEASE_FEATURES; i++)
    await client.call('POST', `/v1/features/${uuid()}`, {
      milestoneId: ids.release,
      subWorkflowId: ids.activities[i % 4],
      title: `Feature ${i + 1}`,
    })
  return ids
}

const dataVersion = (db) => db.prepare('pragma data_version').pluck().get()

/** The provider's fake with a 1,000-issue project, its link body, and which of its calls are polls. */
function providers(fakes) {
  return {
    gitlab: async () => {
      const fake = await new fakes.FakeGitlab().start()
      fake.addProject('bench/shop')
      fake.addProject('bench/big')
      fake.addToken('glpat-bench', { projects: { 'bench/shop': 30, 'bench/big': 30 } })
      for (let i = 0; i < PROJECT_ISSUES; i++) fake.seedIssue('bench/big', { title: `Existing ${i + 1}` })
      const link = (project) => ({ provider: 'gitlab', url: fake.url, project, token: 'glpat-bench' })
      return {
        fake,
        send: link('bench/shop'),
        big: link('bench/big'),
        polls: () =>
          fake.calls.filter((c) => c.route === 'GET /api/v4/projects/:id/issues' && /big/.test(c.path)),
        bigCalls: () => fake.calls.filter((c) => /bench(%2F|\/)big/i.test(c.path)),
      }
    },
    jira: async () => {
      const fake = await new fakes.FakeJira().start()
      fake.addProject('SHOP')
      fake.addProject('BIG')
      fake.addUser('bench@example.com', 'jira-bench')
      for (let i = 0; i < PROJECT_ISSUES; i++) fake.seedIssue('BIG', { summary: `Existing ${i + 1}` })
      const link = (project) => ({
        provider: 'jira',
        url: fake.url,
        project,
        email: 'bench@example.com',
        token: 'jira-bench',
      })
      const polls = () =>
        fake.calls.filter(
          (c) => c.route === 'POST /rest/api/3/search/jql' && /BIG/.test(JSON.stringify(c.body ?? '')),
        )
      return { fake, send: link('SHOP'), big: link('BIG'), polls, bigCalls: polls }
    },
  }
}

async function benchProvider(name, make, step) {
  const p = await make()
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `storymap-bench-${name}-`))
  const app = await startApp({
    databaseDir: dir,
    extraEnv: { TRACKER_ALLOW_HTTP: 'true', TRACKER_POLL_SECONDS: String(POLL_SECONDS) },
  })
  try {
    const client = new ApiClient(app.url)
    await client.signUp()
    step(`${name}: seeding a release of ${RELEASE_FEATURES} features`)
    const map = await seedRelease(client, `${name} bench`)
    await client.call('PUT', `/v1/projects/${map.project}/tracker`, p.send)
    const versionBefore = (await client.call('GET', `/v1/projects/${map.project}`)).json.version
    step(`${name}: Send to tracker, ${RELEASE_FEATURES} features`)
    const callsBefore = p.fake.calls.length
    const started = performance.now()
    const sent = (await client.call('POST', `/v1/milestones/${map.release}/issues`)).json
    const sendMs = performance.now() - started
    const sendCalls = p.fake.calls.length - callsBefore
    const versionAfter = (await client.call('GET', `/v1/projects/${map.project}`)).json.version

    step(`${name}: polls of a ${PROJECT_ISSUES}-issue project`)
    // JQL reads to the minute: issues changed in the link's minute come again in that minute's polls.
    if (name === 'jira') await new Promise((r) => setTimeout(r, 61_000 - (Date.now() % 60_000)))
    const big = { project: uuid() }
    await client.call('POST', `/v1/projects/${big.project}`, { title: `${name} big` })
    await client.call('PUT', `/v1/projects/${big.project}/tracker`, p.big)
    await until(() => p.polls().length >= 1, 30_000)
    const db = new Database(path.join(dir, 'storymap.db'), { readonly: true })
    const seen = p.bigCalls().length
    const version = dataVersion(db)
    const polls = p.polls().length
    await until(() => p.polls().length >= polls + 1, POLL_SECONDS * 3000)
    await new Promise((r) => setTimeout(r, 300))
    const quiet = { requests: p.bigCalls().length - seen, commits: dataVersion(db) - version }
    db.close()
    return { sent, sendMs, sendCalls, changes: versionAfter - versionBefore, quiet }
  } finally {
    await app.stop()
    await p.fake.stop()
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

export async function benchTrackers(step) {
  const fakes = await loadFakes()
  const out = {}
  for (const [name, make] of Object.entries(providers(fakes)))
    out[name] = await benchProvider(name, make, step)
  return out
}

export function printTrackers(results, load) {
  console.log('\n## GitLab and Jira Cloud through the connector (fakes on loopback, real clients)\n')
  for (const [name, r] of Object.entries(results)) {
    console.log(
      `${name}: Send to tracker, ${RELEASE_FEATURES}-feature release: ${r.sent.created} issues in ${(r.sendMs / 1000).toFixed(2)} s ` +
        `(${(r.sendMs / Math.max(1, r.sent.created)).toFixed(1)} ms per issue), ${r.sendCalls} requests, ${r.changes} map changes, ${r.sent.failed.length} failed`,
    )
    console.log(
      `${name}: one poll of a ${PROJECT_ISSUES}-issue project, nothing changed: ${r.quiet.requests} request(s), database commits ${r.quiet.commits} (target: 1 request, no writes)`,
    )
  }
  console.log(`load average: ${load}`)
}
