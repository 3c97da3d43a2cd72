// npm run bench:profile — a CPU profile of the server under the rename load (20 connections,
// 10 s) on a small map, and its top functions by self time, for docs/benchmarks.md.
// BENCH_SKIP_BUILD=1 reuses an existing build; PROFILE_SECONDS changes the load's length.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { throughput } from './http-load.mjs'
import { loadAverage } from './report.mjs'
import { ApiClient } from './seed.mjs'
import { buildApp, startApp } from './servers.mjs'

const uuid = () => crypto.randomUUID()

/** Self time per function (name, file:line) from a V8 .cpuprofile, biggest first. */
export function topFunctions(profile, count = Number(process.env.PROFILE_TOP ?? 15)) {
  const self = new Map()
  const byId = new Map(profile.nodes.map((n) => [n.id, n]))
  const interval = (profile.endTime - profile.startTime) / profile.samples.length
  for (const id of profile.samples) {
    const { callFrame } = byId.get(id)
    const where = callFrame.url ? `${path.basename(callFrame.url)}:${callFrame.lineNumber + 1}` : ''
    const key = `${callFrame.functionName || '(anonymous)'} ${where}`.trim()
    self.set(key, (self.get(key) ?? 0) + interval)
  }
  const total = [...self.values()].reduce((a, b) => a + b, 0)
  return [...self.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, us]) => ({ name, share: us / total }))
}

async function main() {
  buildApp()
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'storymap-profile-'))
  const app = await startApp({ extraFlags: ['--cpu-prof', `--cpu-prof-dir=${dir}`] })
  try {
    const client = new ApiClient(app.url)
    await client.signUp()
    const project = uuid()
    const goal = uuid()
    const activity = uuid()
    const release = uuid()
    await client.call('POST', `/v1/projects/${project}`, { title: 'Profile' })
    await client.call('POST', `/v1/workflows/${goal}`, { projectId: project, title: 'G' })
    await client.call('POST', `/v1/subworkflows/${activity}`, { workflowId: goal, title: 'A' })
    await client.call('POST', `/v1/milestones/${release}`, { projectId: project, title: 'R' })
    const features = []
    for (let i = 0; i < 20; i++) {
      const id = uuid()
      await client.call('POST', `/v1/features/${id}`, {
        milestoneId: release,
        subWorkflowId: activity,
        title: `F${i}`,
      })
      features.push(id)
    }
    let n = 0
    const seconds = Number(process.env.PROFILE_SECONDS ?? 10)
    // PROFILE_TARGET=healthz profiles GET /healthz instead: the request path without a write.
    const result =
      process.env.PROFILE_TARGET === 'healthz'
        ? await throughput({ url: `${app.url}/healthz`, seconds })
        : await throughput({
            url: app.url,
            headers: { ...client.headers(), 'Content-Type': 'application/json' },
            seconds,
            requests: [
              {
                method: 'POST',
                setupRequest: (r) => ({
                  ...r,
                  path: `/v1/features/${features[n++ % features.length]}/rename`,
                  body: JSON.stringify({ title: `T${n}` }),
                }),
              },
            ],
          })
    await app.stop()
    const file = fs.readdirSync(dir).find((f) => f.endsWith('.cpuprofile'))
    const top = topFunctions(JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')))
    if (process.env.PROFILE_KEEP) fs.copyFileSync(path.join(dir, file), process.env.PROFILE_KEEP)
    console.log(
      `${process.env.PROFILE_TARGET === 'healthz' ? 'GET /healthz' : 'renames'}: ${Math.round(result.perSecond)}/s, p99 ${result.p99.toFixed(1)} ms; load average ${loadAverage()}`,
    )
    console.log('| self time | function |\n|---:|---|')
    for (const { name, share } of top) console.log(`| ${(share * 100).toFixed(1)} % | \`${name}\` |`)
  } finally {
    await app.stop()
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error) => {
    console.error(error)
    process.exit(1)
  })
}
