// The capacity bench's client side of HTTP: plain node:http (thousands of connections cost the
// load generator far less than fetch's streams), a keep-alive pool for requests, a connection of
// its own for every live stream (CONTRACT §6), and a small SSE reader.
import http from 'node:http'

/**
 * Requests: kept alive and unbounded, as thousands of browsers each have their own connections.
 * An idle connection is dropped after 4 s, before the server's 5 s keep-alive timeout ends it.
 */
const requestAgent = new http.Agent({
  keepAlive: true,
  timeout: 4000,
  maxSockets: Infinity,
  maxFreeSockets: 4096,
})
/** Streams: one connection each, never reused. */
const streamAgent = new http.Agent({ keepAlive: false, maxSockets: Infinity })

export const BROWSER_HEADERS = {
  'User-Agent':
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36',
  'Accept-Encoding': 'gzip, deflate, br',
}
export const PAGE_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8'

/** Requests sent again because the server closed their kept-alive connection as they went out. */
export const resent = { count: 0 }

/**
 * One request, its answer read to the end as sent (not decompressed): `{status, bytes, ms}`,
 * status 0 with `error` when the connection failed or `timeoutMs` passed. A request that finds
 * its kept-alive connection closed by the server before any answer is sent once more on a new
 * one, as browsers do (the time counts from the first try).
 */
export function send(
  url,
  { method = 'GET', headers = {}, body, agent = requestAgent, timeoutMs = 30_000, resend = true } = {},
  started = performance.now(),
) {
  return new Promise((resolve) => {
    const payload = body === undefined ? undefined : Buffer.from(body)
    const sentHeaders = payload ? { ...headers, 'Content-Length': String(payload.length) } : headers
    let bytes = 0
    let answered = false
    const failed = (error) =>
      resolve({ status: 0, error: error.message, bytes, ms: performance.now() - started })
    const req = http.request(url, { method, headers: sentHeaders, agent }, (res) => {
      answered = true
      res.on('data', (chunk) => (bytes += chunk.length))
      res.on('end', () => resolve({ status: res.statusCode, bytes, ms: performance.now() - started }))
      res.on('error', failed)
    })
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)))
    req.on('error', (error) => {
      if (resend && req.reusedSocket && !answered && ['ECONNRESET', 'EPIPE'].includes(error.code)) {
        resent.count += 1
        return resolve(send(url, { method, headers, body, agent, timeoutMs, resend: false }, started))
      }
      failed(error)
    })
    req.end(payload)
  })
}

/** A keep-alive agent of one connection, for a probe that must not queue behind the load. */
export const singleConnection = () => new http.Agent({ keepAlive: true, maxSockets: 1 })

/**
 * A §6 stream on its own connection. `onEvent(type, data, id, at)` gets every event with the
 * time its bytes arrived; `opened` resolves at `ready` and rejects if the stream fails before it;
 * `onEnd(reason)` runs once if the stream ends after `ready` without `close()`.
 */
export function openStream(url, headers, { onEvent, onEnd }) {
  let closedByUs = false
  let ready = false
  let done = false
  let resolveOpen, rejectOpen
  const opened = new Promise((resolve, reject) => ((resolveOpen = resolve), (rejectOpen = reject)))
  const fail = (reason) => {
    if (done) return
    done = true
    if (!ready) rejectOpen(new Error(reason))
    else if (!closedByUs) onEnd(reason)
  }
  const req = http.get(
    url,
    { headers: { ...headers, Accept: 'text/event-stream' }, agent: streamAgent },
    (res) => {
      if (res.statusCode !== 200) {
        res.resume()
        return fail(`stream refused: ${res.statusCode}`)
      }
      res.setEncoding('utf8')
      let buffer = ''
      res.on('data', (text) => {
        const at = performance.now()
        buffer += text
        let end
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          const block = buffer.slice(0, end)
          buffer = buffer.slice(end + 2)
          let type = 'message'
          let data = ''
          let id = null
          for (const line of block.split('\n')) {
            if (line.startsWith('event: ')) type = line.slice(7)
            else if (line.startsWith('data: ')) data += line.slice(6)
            else if (line.startsWith('id: ')) id = Number(line.slice(4))
          }
          if (!data) continue // a comment (keep-alive) or the retry line
          if (type === 'ready' && !ready) {
            ready = true
            resolveOpen()
          }
          onEvent(type, data, id, at)
        }
      })
      res.on('end', () => fail('the server ended the stream'))
      res.on('error', (error) => fail(error.message))
    },
  )
  req.on('error', (error) => fail(error.message))
  return {
    opened,
    close: () => {
      closedByUs = true
      done = true
      if (!ready) rejectOpen(new Error('closed before ready'))
      req.destroy()
    },
  }
}
