// HTTP load with autocannon. Latencies come from autocannon's per-response timings (fractional
// ms), so any percentile can be read, not only the ones autocannon prints.
import autocannon from 'autocannon'

/** The value at percentile `p` (0–100) of `samples`, nearest-rank. */
export function percentile(samples, p) {
  if (samples.length === 0) return NaN
  const sorted = [...samples].sort((a, b) => a - b)
  const rank = Math.ceil((p / 100) * sorted.length)
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]
}

/** Runs autocannon; keeps the latency of each 2xx response whose size in bytes `keep` accepts. */
function run(options, keep = () => true) {
  return new Promise((resolve, reject) => {
    const latencies = []
    const instance = autocannon(options, (error, result) =>
      error ? reject(error) : resolve({ result, latencies }),
    )
    instance.on('response', (_client, statusCode, bytes, ms) => {
      if (statusCode >= 200 && statusCode < 300 && keep(bytes)) latencies.push(ms)
    })
  })
}

function assertClean(label, result) {
  const failed = result.non2xx + result.errors + result.timeouts
  if (failed > 0)
    throw new Error(
      `${label}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`,
    )
}

/**
 * `amount` requests one after another on one connection (after `warmup` unmeasured ones):
 * p50 and p95 in ms. With `requests`, autocannon cycles through them and only responses of
 * at least `minBytes` are timed (e.g. the reads between writes).
 */
export async function sequentialLatency({ url, headers, requests, minBytes = 0, warmup = 30, amount = 300 }) {
  const options = { url, headers, connections: 1, timeout: 30, ...(requests ? { requests } : {}) }
  await run({ ...options, amount: warmup })
  const { result, latencies } = await run({ ...options, amount }, (bytes) => bytes >= minBytes)
  assertClean(`sequential ${url}`, result)
  return { p50: percentile(latencies, 50), p95: percentile(latencies, 95), count: latencies.length }
}

/**
 * `connections` clients in a closed loop for `seconds`: mean requests per second (autocannon's
 * per-second samples) and latency percentiles. `requests` may set up each request (method, path, body).
 */
export async function throughput({ url, headers, method, requests, connections = 20, seconds = 10 }) {
  const options = { url, headers, connections, duration: seconds, timeout: 30 }
  if (method) options.method = method
  if (requests) options.requests = requests
  const { result, latencies } = await run(options)
  assertClean(`load ${url}`, result)
  return {
    perSecond: result.requests.average,
    total: result.requests.total,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  }
}
