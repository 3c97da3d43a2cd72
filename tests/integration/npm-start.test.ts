import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, expect, it } from 'vitest'

/**
 * `npm start` as a service manager runs it (issue #20): npm passes a stop signal on to its script's
 * process, which was a shell that died of it and left the server running with no parent.
 */
const root = fileURLToPath(new URL('../..', import.meta.url))
let serverPid: number | undefined

function isRunning(pid: number) {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

afterEach(() => {
  if (serverPid !== undefined && isRunning(serverPid)) process.kill(serverPid, 'SIGKILL')
  serverPid = undefined
})

it('SIGTERM to `npm start` stops the server, and npm exits 0', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'storymap-test-'))
  const npm = spawn('npm', ['start'], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'production',
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_PATH: path.join(dir, 'storymap.db'),
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let log = ''
  npm.stderr.on('data', (d) => (log += d))
  // The "listening" log line names the server's process and port.
  const server = await new Promise<{ pid: number; port: number }>((resolve, reject) => {
    npm.stdout.on('data', (d) => {
      log += d
      const line = log.split('\n').find((l) => l.includes('Storymap listening'))
      if (line) {
        const { pid, port } = JSON.parse(line) as { pid: number; port: number }
        resolve({ pid, port })
      }
    })
    npm.on('exit', (code) => reject(new Error(`npm start exited with ${code}:\n${log}`)))
  })
  serverPid = server.pid
  expect((await fetch(`http://127.0.0.1:${server.port}/healthz`)).status).toBe(200)

  const exit = new Promise((resolve) => npm.once('exit', (code, signal) => resolve({ code, signal })))
  npm.kill('SIGTERM')
  const exited = await exit
  expect(isRunning(server.pid)).toBe(false)
  expect(exited).toEqual({ code: 0, signal: null })
  await expect(fetch(`http://127.0.0.1:${server.port}/healthz`)).rejects.toThrow()
})

/** An older Node.js than `engines` allows (issue 44): STORYMAP_OLD_NODE (scripts/test.sh), else the system's. */
const oldNode = process.env.STORYMAP_OLD_NODE ?? '/usr/bin/node'

it('`npm start` on Node 20 refuses with one line naming the version needed, and touches no database', async () => {
  const version = await new Promise<string>((resolve, reject) => {
    const probe = spawn(oldNode, ['--version'], { stdio: ['ignore', 'pipe', 'inherit'] })
    let out = ''
    probe.stdout.on('data', (d) => (out += d))
    probe.on('error', reject)
    probe.on('exit', () => resolve(out.trim()))
  })
  expect(
    Number(version.replace(/^v/, '').split('.')[0]),
    `${oldNode} must be a Node older than 22`,
  ).toBeLessThan(22)
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'storymap-test-'))
  const npm = spawn('npm', ['start', '--silent'], {
    cwd: root,
    env: {
      PATH: `${path.dirname(oldNode)}:${process.env.PATH}`,
      HOME: process.env.HOME,
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_PATH: path.join(dir, 'data', 'storymap.db'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  npm.stdout.on('data', (d) => (stdout += d))
  npm.stderr.on('data', (d) => (stderr += d))
  const code = await new Promise((resolve) => npm.once('exit', resolve))
  expect(code).not.toBe(0)
  expect(stdout).toBe('')
  expect(stderr.trim().split('\n')).toEqual([
    `Storymap needs Node.js 22.12 or later (24 recommended); this is Node.js ${version.slice(1)}. See "Runtime" in the README.`,
  ])
  expect(fs.existsSync(path.join(dir, 'data'))).toBe(false)
})
