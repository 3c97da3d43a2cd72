// BENCH_ONLY=webhooks (issue "Webhooks"): feature renames per second on a 1,000-feature map with
// no webhook, then with one endpoint whose receiver takes 5 s to answer each delivery. Deliveries
// go through the outbox and the worker, so the second figure should stay within 0.9× the first.
import http from 'node:http'
import { throughput } from './http-load.mjs'
import { ApiClient, mapShape, seedStoryMap } from './seed.mjs'
import { startApp } from './servers.mjs'

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10)

function renames(features) {
  let count = 0
  return {
    method: 'POST',
    setupRequest: (request) => {
      const feature = features[count++ % features.length]
      return {
        ...request,
        path: `/v1/features/${feature.id}/rename`,
        body: JSON.stringify({ title: `Renamed ${count}` }),
      }
    },
  }
}

/** A receiver that answers 200 after 5 s. */
async function slowReceiver() {
  let received = 0
  const server = http.createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      received += 1
      setTimeout(() => res.writeHead(200).end('ok'), 5000)
    })
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${server.address().port}/hook`,
    received: () => received,
    close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(resolve))),
  }
}

export async function benchWebhooks(step) {
  const app = await startApp({ extraEnv: { WEBHOOKS_ALLOW_HTTP: 'true', WEBHOOKS_ALLOW_PRIVATE: 'true' } })
  const receiver = await slowReceiver()
  try {
    const client = new ApiClient(app.url)
    await client.signUp()
    const map = await seedStoryMap(client, mapShape(1000))
    const headers = { ...client.headers(), 'Content-Type': 'application/json' }
    step(`feature rename without webhooks: 20 connections for ${SECONDS} s`)
    const without = await throughput({
      url: app.url,
      headers,
      requests: [renames(map.features)],
      seconds: SECONDS,
    })
    await client.call('POST', '/v1/webhooks', {
      url: receiver.url,
      projectId: null,
      events: ['change', 'comment', 'project'],
    })
    step(`feature rename with a webhook whose receiver takes 5 s: 20 connections for ${SECONDS} s`)
    const withHook = await throughput({
      url: app.url,
      headers,
      requests: [renames(map.features)],
      seconds: SECONDS,
    })
    return { without, withHook, delivered: receiver.received() }
  } finally {
    await receiver.close()
    await app.stop()
  }
}

export function printWebhooks({ without, withHook, delivered }, load) {
  console.log('\n## Renames with a webhook attached (1,000-feature map; receiver answers after 5 s)\n')
  console.log(
    `without webhooks:   ${without.perSecond.toFixed(0)} renames/s (p50 ${without.p50.toFixed(1)} ms, p99 ${without.p99.toFixed(1)} ms)`,
  )
  console.log(
    `with one webhook:   ${withHook.perSecond.toFixed(0)} renames/s (p50 ${withHook.p50.toFixed(1)} ms, p99 ${withHook.p99.toFixed(1)} ms), ` +
      `${(withHook.perSecond / without.perSecond).toFixed(2)}× (target ≥ 0.9×); deliveries received meanwhile: ${delivered}`,
  )
  console.log(`load average: ${load}`)
}
