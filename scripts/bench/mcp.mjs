// BENCH_ONLY=mcp (issue "MCP"): an assistant's add_feature over MCP beside the REST create it
// wraps, one after another on a small map, each timed from the client's side (p50, p95).
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import crypto from 'node:crypto'
import { percentile } from './http-load.mjs'
import { ApiClient, mapShape, seedStoryMap } from './seed.mjs'
import { startApp } from './servers.mjs'

const ROUNDS = 300
const WARMUP = 30

async function timed(rounds, task) {
  const samples = []
  for (let i = 0; i < WARMUP + rounds; i++) {
    const started = performance.now()
    await task(i)
    if (i >= WARMUP) samples.push(performance.now() - started)
  }
  return { p50: percentile(samples, 50), p95: percentile(samples, 95) }
}

export async function benchMcp(step) {
  const app = await startApp()
  try {
    const client = new ApiClient(app.url)
    const account = await client.signUp()
    const map = await seedStoryMap(client, mapShape(1000))
    const { json } = await client.call('POST', '/v1/account/tokens', {
      name: 'Bench assistant',
      workspaceId: client.workspaceId,
      scope: 'write',
    })
    const auth = { Authorization: `Bearer ${json.secret}` }
    const first = map.features[0]
    const bundle = (await client.call('GET', `/v1/projects/${map.projectId}`)).json
    const feature = bundle.features.find((f) => f.id === first.id)

    step(`REST: POST /v1/features/{id} with the token, ${ROUNDS} in a row`)
    const rest = await timed(ROUNDS, async (i) => {
      const res = await fetch(`${app.url}/v1/features/${crypto.randomUUID()}`, {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          subWorkflowId: feature.subWorkflowId,
          milestoneId: feature.milestoneId,
          title: `REST ${i}`,
        }),
      })
      if (res.status !== 200) throw new Error(`REST create: ${res.status} ${await res.text()}`)
      await res.arrayBuffer()
    })

    step(`MCP: tools/call add_feature, ${ROUNDS} in a row (one connection, stateless server)`)
    const assistant = new McpClient({ name: 'bench', version: '1.0.0' })
    await assistant.connect(
      new StreamableHTTPClientTransport(new URL(`${app.url}/mcp`), { requestInit: { headers: auth } }),
    )
    const mcp = await timed(ROUNDS, async (i) => {
      const answer = await assistant.callTool({
        name: 'add_feature',
        arguments: { activityId: feature.subWorkflowId, releaseId: feature.milestoneId, title: `MCP ${i}` },
      })
      if (answer.isError) throw new Error(`MCP add_feature: ${JSON.stringify(answer.content)}`)
    })
    await assistant.close()
    return { rest, mcp, account }
  } finally {
    await app.stop()
  }
}

export function printMcp({ rest, mcp }, load) {
  console.log(
    '\n## An assistant adds a feature: MCP add_feature beside the REST create (1,000-feature map, sequential)\n',
  )
  console.log(`REST POST /v1/features/{id}: p50 ${rest.p50.toFixed(1)} ms, p95 ${rest.p95.toFixed(1)} ms`)
  console.log(
    `MCP add_feature:             p50 ${mcp.p50.toFixed(1)} ms, p95 ${mcp.p95.toFixed(1)} ms (${(mcp.p50 / rest.p50).toFixed(2)}× REST)`,
  )
  console.log(`load average: ${load}`)
}
