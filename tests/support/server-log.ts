import type { RunningServer } from './server'

export type LogLine = { level: number; msg: string; [field: string]: unknown }
const WARN = 40

/** The server's JSON log lines in `output`. */
export function logLines(output: string): LogLine[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine)
}

/**
 * The warnings the server logged from `mark` (an offset into its output) until now. The log comes
 * through a pipe of its own, behind the answers: a write refused for its Origin logs a marker line,
 * and every line before the marker has arrived once it has.
 */
export async function warningsSince(server: RunningServer, mark = 0): Promise<string[]> {
  const marker = `https://log-marker-${Math.random().toString(36).slice(2)}.example`
  const res = await fetch(`${server.url}/v1/users/login`, { method: 'POST', headers: { Origin: marker } })
  if (res.status !== 403) throw new Error(`the marker request was not refused: ${res.status}`)
  const deadline = Date.now() + 10_000
  for (;;) {
    const lines = logLines(server.output().slice(mark))
    const at = lines.findIndex((line) => line.msg.includes(marker))
    if (at >= 0)
      return lines
        .slice(0, at)
        .filter((line) => line.level === WARN)
        .map((line) => line.msg)
    if (Date.now() > deadline)
      throw new Error(`the marker never reached the log:\n${server.output().slice(-2000)}`)
    // The next chunk of output, or a fresh look in a moment (a chunk may have come before we listened).
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer)
        server.process.stdout!.off('data', done)
        resolve()
      }
      const timer = setTimeout(done, 200)
      server.process.stdout!.once('data', done)
    })
  }
}
