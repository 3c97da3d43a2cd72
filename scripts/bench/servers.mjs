// The processes the benchmark measures: the built app on a temporary database, and a bare
// node:http server that answers fixed bytes (the ceiling the app's read path is compared with).
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
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
export function spawnListening(args, env, label) {
  let log = ''
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] })
  // BENCH_APP_LOG=FILE: the app's output goes to FILE as well (with BENCH_NODE_FLAGS=--trace-gc, say).
  const keep = process.env.BENCH_APP_LOG
    ? (d) => fs.appendFileSync(process.env.BENCH_APP_LOG, d)
    : (d) => (log += d)
  child.stdout.on('data', keep)
  child.stderr.on('data', keep)
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

const START_WORDS = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts.start.split(
  /\s+/,
)
/** Node flags production runs with: `npm start` in package.json. */
const APP_NODE_FLAGS = START_WORDS.filter((word) => word.startsWith('--'))
/** The environment `npm start` sets besides NODE_ENV (the allocator's tunables). */
const APP_START_ENV = Object.fromEntries(
  START_WORDS.filter((word) => /^[A-Z_]+=/.test(word) && !word.startsWith('NODE_ENV=')).map((word) => [
    word.slice(0, word.indexOf('=')),
    word.slice(word.indexOf('=') + 1),
  ]),
)

/**
 * The built app (build/server.js) as tests/support/server.ts starts it, on a fresh database, or
 * on the one in `databaseDir` (kept when it stops: a profile run restarts on a seeded map).
 */
export async function startApp({ extraFlags = [], databaseDir, extraEnv = {} } = {}) {
  const dir = databaseDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'storymap-bench-'))
  const env = {
    PATH: process.env.PATH,
    NODE_ENV: 'production',
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_PATH: path.join(dir, 'storymap.db'),
    RATE_LIMIT: 'off',
    LOG_LEVEL: 'warn',
    ...APP_START_ENV,
    // PAGE_THREADS=0 compares with pages rendered on the main thread (ADR 29).
    ...(process.env.PAGE_THREADS ? { PAGE_THREADS: process.env.PAGE_THREADS } : {}),
    // BENCH_APP_ENV="NAME=value …": more environment for the app, to try a setting in an A/B run.
    ...Object.fromEntries(
      (process.env.BENCH_APP_ENV ?? '')
        .split(' ')
        .filter(Boolean)
        .map((word) => [word.slice(0, word.indexOf('=')), word.slice(word.indexOf('=') + 1)]),
    ),
    ...extraEnv,
  }
  // The flags of `npm start` and the Docker image (package.json, Dockerfile).
  const app = await spawnListening([...APP_NODE_FLAGS, ...extraFlags, 'build/server.js'], env, 'the app')
  return {
    ...app,
    stop: async () => {
      await app.stop()
      if (!databaseDir) fs.rmSync(dir, { recursive: true, force: true })
    },
  }
}

/**
 * A bare node:http server answering every request with `body` (its content type, and its content
 * encoding when the bytes are compressed); with `staticDir`, paths naming a file there get the file.
 */
export async function startBareServer(body, contentType, { contentEncoding, staticDir } = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'storymap-bare-'))
  const file = path.join(dir, 'body')
  fs.writeFileSync(file, body)
  const script = fileURLToPath(new URL('./bare-server.mjs', import.meta.url))
  const env = { PATH: process.env.PATH, BARE_BODY_FILE: file, BARE_CONTENT_TYPE: contentType }
  if (contentEncoding) env.BARE_CONTENT_ENCODING = contentEncoding
  if (staticDir) env.BARE_STATIC_DIR = staticDir
  const bare = await spawnListening([script], env, 'the bare server')
  return {
    ...bare,
    stop: async () => {
      await bare.stop()
      fs.rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** A GET whose answer is kept as sent (node:http does not decompress): status, headers, bytes. */
export function rawGet(url, headers = {}) {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks = []
        res.on('data', (c) => chunks.push(c))
        res.on('end', () =>
          resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }),
        )
        res.on('error', reject)
      })
      .on('error', reject)
  })
}

/**
 * The physical limit the board is judged by (issue #15): the same server-rendered board HTML with
 * every script removed (no hydration, no JavaScript at all), served by a bare node:http server
 * with the app's built static files (its CSS), to be loaded the same way in the same browser.
 */
export async function startStaticBoardCopy(appUrl, boardPath, cookie) {
  const page = await rawGet(appUrl + boardPath, { Cookie: cookie, 'Accept-Encoding': 'identity' })
  if (page.status !== 200) throw new Error(`board page: ${page.status}`)
  const html = page.body
    .toString('utf8')
    .replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, '')
    .replace(/<link\b[^>]*rel="modulepreload"[^>]*>/gi, '')
  const server = await startBareServer(html, 'text/html; charset=utf-8', {
    staticDir: path.join(ROOT, 'build/client'),
  })
  return { ...server, url: server.url + boardPath, htmlBytes: Buffer.byteLength(html) }
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
