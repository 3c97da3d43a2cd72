// The live board's fan-out (issue "Live board"): many open streams on one project, the time
// from a rename's response to its change event at every stream, the server's memory with the
// streams open, and rename throughput with streams open.
import { percentile, throughput } from './http-load.mjs'

/** Separate sign-ins of the same member (a session keeps at most 20 streams; CONTRACT §6). */
async function sessions(baseUrl, account, count) {
  const cookies = []
  for (let i = 0; i < count; i++) {
    const res = await fetch(`${baseUrl}/v1/users/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: baseUrl },
      body: JSON.stringify({ email: account.email, password: account.password }),
    })
    if (res.status !== 200) throw new Error(`log-in for streams: ${res.status} ${await res.text()}`)
    cookies.push(res.headers.getSetCookie()[0].split(';')[0])
  }
  return cookies
}

/**
 * Opens `count` streams; each notes when the change of a version arrives (a text search for its
 * `id:` line, so the bench process spends as little as it can per event).
 */
async function openStreams(baseUrl, path, cookies, count) {
  const controller = new AbortController()
  const arrivals = [] // per stream: Map version → ms
  const streams = []
  for (let i = 0; i < count; i++) {
    const seen = new Map()
    arrivals.push(seen)
    const res = await fetch(baseUrl + path, {
      headers: { Cookie: cookies[Math.floor(i / 20)], Accept: 'text/event-stream' },
      signal: controller.signal,
    })
    if (res.status !== 200) throw new Error(`stream ${i}: ${res.status} ${await res.text()}`)
    const reader = res.body.getReader()
    const decoder = new TextDecoder()
    let ready
    const isReady = new Promise((resolve) => (ready = resolve))
    streams.push(
      (async () => {
        try {
          for (;;) {
            const { done, value } = await reader.read()
            if (done) break
            const now = performance.now()
            const text = decoder.decode(value, { stream: true })
            if (text.includes('event: ready')) ready()
            for (const match of text.matchAll(/^id: (\d+)$/gm)) seen.set(Number(match[1]), now)
          }
        } catch {
          // aborted at the end
        }
      })(),
    )
    await isReady
  }
  return { arrivals, close: () => controller.abort(), done: Promise.all(streams) }
}

/**
 * `streamCount` streams on the project, then `renames` renames one after another: for each, the
 * ms from its response to its event at every stream (an event that came first counts as 0).
 */
export async function measureFanout({ app, client, account, map, rss, streamCount = 1000, renames = 40 }) {
  const path = `/v1/projects/${map.projectId}/events`
  const cookies = await sessions(app.url, account, Math.ceil(streamCount / 20))
  const opened = performance.now()
  const streams = await openStreams(app.url, path, cookies, streamCount)
  const openSeconds = (performance.now() - opened) / 1000
  const latencies = []
  const fromSend = []
  // This bench is the map's only writer: each rename is the next version.
  let version = (await client.call('GET', `/v1/projects/${map.projectId}`)).json.version
  try {
    for (let i = 0; i < renames; i++) {
      const feature = map.features[i % map.features.length]
      const sent = performance.now()
      await client.call('POST', `/v1/features/${feature.id}/rename`, { title: `Live ${i}` })
      const answered = performance.now()
      version += 1
      const deadline = answered + 10_000
      while (streams.arrivals.some((seen) => !seen.has(version)) && performance.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 2))
      for (const seen of streams.arrivals) {
        const at = seen.get(version)
        latencies.push(at === undefined ? Infinity : Math.max(0, at - answered))
        fromSend.push(at === undefined ? Infinity : at - sent)
      }
    }
    const rssWithStreams = rss()
    return {
      streams: streamCount,
      openSeconds,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      missed: latencies.filter((l) => l === Infinity).length,
      // The events leave before the response does, so also: from the request going out.
      sentP50: percentile(fromSend, 50),
      sentP99: percentile(fromSend, 99),
      rssWithStreams,
    }
  } finally {
    streams.close()
    await streams.done
  }
}

/** Rename throughput (20 connections, 10 s) while `streamCount` streams are open and receiving. */
export async function renamesWithStreams({ app, client, account, map, renameRequest, streamCount = 200 }) {
  const cookies = await sessions(app.url, account, Math.ceil(streamCount / 20))
  const streams = await openStreams(app.url, `/v1/projects/${map.projectId}/events`, cookies, streamCount)
  try {
    return await throughput({
      url: app.url,
      headers: { ...client.headers(), 'Content-Type': 'application/json' },
      requests: [renameRequest(map.features)],
    })
  } finally {
    streams.close()
    await streams.done
  }
}
