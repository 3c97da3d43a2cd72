import { spawn, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

/** The repository root (works under vitest and under Playwright, whose test files are ES modules). */
const root = fileURLToPath(new URL('../..', import.meta.url))

export type RunningServer = {
  url: string
  port: number
  dir: string
  dbPath: string
  process: ChildProcess
  output: () => string
  stop: (signal?: NodeJS.Signals) => Promise<number | NodeJS.Signals | null>
}

/**
 * Starts the built app (build/server.js) on a free port with its own temporary database.
 * One per test file; `npm run build` must have run (npm test does it).
 */
export async function startServer(
  env: Record<string, string> = {},
  /** dir: the database's folder (a restart passes the same); root: the app's folder (default: this checkout). */
  options: { dir?: string; root?: string } = {},
): Promise<RunningServer> {
  const dir = options.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'storymap-test-'))
  const dbPath = path.join(dir, 'storymap.db')
  let log = ''
  const child = spawn(process.execPath, ['build/server.js'], {
    cwd: options.root ?? root,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_PATH: dbPath,
      RATE_LIMIT: 'off',
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  })
  child.stdout!.on('data', (d) => (log += d))
  child.stderr!.on('data', (d) => (log += d))
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${log}`)), 20_000)
    child.on('message', (m: { listening?: number }) => {
      if (m.listening) {
        clearTimeout(timer)
        resolve(m.listening)
      }
    })
    child.on('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`server exited with ${code}:\n${log}`))
    })
  })
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    dir,
    dbPath,
    process: child,
    output: () => log,
    // The exit code, or the signal that ended the process (a crash reads `SIGSEGV`, not null),
    // with the server's last output on stderr when it did not stop as asked.
    stop: (signal = 'SIGTERM') =>
      new Promise((resolve) => {
        const ended = (code: number | null, by: NodeJS.Signals | null) => {
          if ((by !== null && by !== signal) || (signal === 'SIGTERM' && code !== 0))
            process.stderr.write(
              `the server ended with ${code ?? by} (asked: ${signal}); its last output:\n${log.slice(-4000)}\n`,
            )
          resolve(code ?? by)
        }
        if (child.exitCode !== null || child.signalCode !== null)
          return ended(child.exitCode, child.signalCode)
        child.once('exit', ended)
        child.kill(signal)
      }),
  }
}

/** The nice value of each of a process's threads (Linux: field 19 of /proc/<pid>/task/<tid>/stat). */
export function threadNiceness(pid: number): number[] {
  return fs
    .readdirSync(`/proc/${pid}/task`)
    .map((tid) =>
      Number(fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8').split(') ')[1].split(' ')[16]),
    )
}
