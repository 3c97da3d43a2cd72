// The processes the benchmark measures: the built app on a temporary database, and a bare
// node:http server that answers fixed bytes (the ceiling the app's read path is compared with).
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

export const ROOT = fileURLToPath(new URL('../..', import.meta.url))

/** `npm run build`, unless BENCH_SKIP_BUILD=1 and a build exists. */
export function buildApp() {
  if (process.env.BENCH_SKIP_BUILD === '1' && fs.existsSync(path.join(ROOT, 'build/server.js'))) return
  const result = spawnSync('npm', ['run', 'build'], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  if (result.status !== 0) throw new Error(`npm run build failed:\n${result.stdout}\n${result.stderr}`)
}

/** Spawns a Node script and waits for its `{listening: port}` IPC message. */
function spawnListening(args, env, label) {
  let log = ''
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] })
  child.stdout.on('data', (d) => (log += d))
  child.stderr.on('data', (d) => (log += d))
  const port = new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${label} did not start:\n${log}`)), 30_000)
    child.on('message', (m) => {
      if (m && m.listening) {
        clearTimeout(timer)
        resolve(m.listening)
      }
    })
    child.on('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`${label} exited with ${code}:\n${log}`))
    })
  })
  const stop = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null) return resolve(child.exitCode)
      child.once('exit', resolve)
      child.kill('SIGTERM')
    })
  return port.then((p) => ({
    url: `http://127.0.0.1:${p}`,
    port: p,
    pid: child.pid,
    output: () => log,
    stop,
  }))
}

/** Node flags production runs with: `npm start` in package.json. */
const APP_NODE_FLAGS = (() => {
  const start = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts.start
  return start.split(/\s+/).filter((word) => word.startsWith('--'))
})()

/** The built app (build/server.js) as tests/support/server.ts starts it, on a fresh database. */
export async function startApp({ extraFlags = [] } = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'storymap-bench-'))
  const env = {
    PATH: process.env.PATH,
    NODE_ENV: 'production',
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_PATH: path.join(dir, 'storymap.db'),
    RATE_LIMIT: 'off',
    LOG_LEVEL: 'warn',
  }
  // The flags of `npm start` and the Docker image (package.json, Dockerfile).
  const app = await spawnListening([...APP_NODE_FLAGS, ...extraFlags, 'build/server.js'], env, 'the app')
  return {
    ...app,
    stop: async () => {
      await app.stop()
      fs.rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** A bare node:http server answering every request with `body` (and its content type). */
export async function startBareServer(body, contentType) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'storymap-bare-'))
  const file = path.join(dir, 'body')
  fs.writeFileSync(file, body)
  const script = fileURLToPath(new URL('./bare-server.mjs', import.meta.url))
  const env = { PATH: process.env.PATH, BARE_BODY_FILE: file, BARE_CONTENT_TYPE: contentType }
  const bare = await spawnListening([script], env, 'the bare server')
  return {
    ...bare,
    stop: async () => {
      await bare.stop()
      fs.rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** Resident set size of a process in MB (Linux /proc, else `ps`). */
export function rssMegabytes(pid) {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8')
    const kb = Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1])
    if (kb) return kb / 1024
  } catch {
    // not Linux: ask ps
  }
  const ps = spawnSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' })
  return Number(ps.stdout.trim()) / 1024
}
