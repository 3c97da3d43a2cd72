import http from 'node:http'

export type Received = { url: string; headers: http.IncomingHttpHeaders; body: string; json: any; at: number }

/**
 * A webhook receiver on loopback: keeps every request, answers what `answer` says (200 by
 * default; it may also wait first). `waitFor(n)` resolves once n requests have come.
 */
export async function startReceiver() {
  const received: Received[] = []
  const waiters: (() => void)[] = []
  type Answer = number | { status: number; body?: string; headers?: Record<string, string> }
  let answer: (req: Received) => Answer | Promise<Answer> = () => 200
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8')
      let json: unknown
      try {
        json = JSON.parse(body)
      } catch {
        json = undefined
      }
      const item = { url: req.url ?? '', headers: req.headers, body, json, at: Date.now() }
      received.push(item)
      waiters.splice(0).forEach((w) => w())
      const given = await answer(item)
      const {
        status,
        body: text,
        headers,
      } = typeof given === 'number' ? { status: given, body: undefined, headers: {} } : given
      res
        .writeHead(status, { 'Content-Type': 'text/plain', ...headers })
        .end(text ?? (status >= 300 ? `refused with ${status}` : 'ok'))
    })
  })
  const port = await new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)),
  )
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    answer(fn: typeof answer) {
      answer = fn
    },
    /** Waits until at least `count` requests have come (up to `ms`), and returns them all. */
    async waitFor(count: number, ms = 10_000): Promise<Received[]> {
      const deadline = Date.now() + ms
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} deliveries, got ${received.length}`)
        await new Promise<void>((resolve) => {
          waiters.push(resolve)
          setTimeout(resolve, 100)
        })
      }
      return received
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
