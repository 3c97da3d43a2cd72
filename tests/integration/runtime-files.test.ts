import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { bundle, makeBoard } from '../support/board'
import { signUp } from '../support/client'
import { startServer, threadNiceness, type RunningServer } from '../support/server'

/**
 * What the Docker image's runtime stage holds (issue 34): build/, drizzle/, package.json and only
 * the runtime packages with what they need (scripts/runtime-modules.mjs). Started from a folder
 * with nothing else, the app must do everything a self-hoster does: no import may reach a package
 * the image leaves out.
 */
const root = fileURLToPath(new URL('../..', import.meta.url))
let app: string
let server: RunningServer

beforeAll(async () => {
  app = fs.mkdtempSync(path.join(os.tmpdir(), 'storymap-runtime-'))
  execFileSync(process.execPath, ['scripts/runtime-modules.mjs', app], { cwd: root })
  for (const entry of ['build', 'drizzle', 'package.json', 'scripts/backup.mjs'])
    fs.cpSync(path.join(root, entry), path.join(app, entry), { recursive: true })
  server = await startServer({}, { root: app })
})
afterAll(async () => {
  await server?.stop()
  if (app) fs.rmSync(app, { recursive: true, force: true })
})

function sizeOf(at: string): number {
  const stat = fs.lstatSync(at)
  if (!stat.isDirectory()) return stat.size
  return fs.readdirSync(at).reduce((sum, entry) => sum + sizeOf(path.join(at, entry)), 0)
}

/** Every file under a folder, relative to it. */
function filesIn(at: string): string[] {
  const all = fs.readdirSync(at, { recursive: true }) as string[]
  return all.filter((file) => fs.statSync(path.join(at, file)).isFile())
}

it('holds only the runtime packages, far under the image budget', () => {
  const packages = fs.readdirSync(path.join(app, 'node_modules'))
  for (const left of ['typescript', 'vite', 'swagger-ui-react', 'stripe', 'express', 'date-fns'])
    expect(packages, left).not.toContain(left)
  expect(sizeOf(app) / 1e6).toBeLessThan(80)
})

it('leaves out install-time packages, C sources, unused binaries, declarations and source maps (issue 43)', () => {
  const modules = path.join(app, 'node_modules')
  const packages = fs.readdirSync(modules)
  const installOnly = ['prebuild-install', 'cross-env', 'node-addon-api', 'node-abi', 'tar-fs', 'cross-spawn']
  for (const name of installOnly) expect(packages, name).not.toContain(name)
  const files = filesIn(modules)
  expect(files.filter((file) => /\.(c|cc|cpp|h|hpp|gyp|gypi)$/.test(file))).toEqual([])
  expect(files.filter((file) => /\.d\.[cm]?ts$|\.map$/.test(file))).toEqual([])
  // argon2 loads the addon compiled at install (build/Release) or else its glibc prebuild, never both.
  const addons = files.filter((file) => file.startsWith('argon2/') && file.endsWith('.node'))
  expect(addons.length, addons.join(', ')).toBe(1)
  expect(addons[0]).toMatch(/^argon2\/(build\/Release\/argon2|prebuilds\/linux-x64\/argon2\.glibc)\.node$/)
})

it('signs up (argon2), builds a map (SQLite), serves the board page (React) and the API, and backs up', async () => {
  const owner = await signUp(server.url)
  const ids = await makeBoard(owner.client)
  expect((await bundle(owner.client, ids.project)).features.map((f: { title: string }) => f.title)).toEqual([
    'Feature',
  ])

  const page = await owner.client.get(`/${owner.workspaceName}/projects/${ids.project}`)
  expect(page.status).toBe(200)
  expect(page.text).toContain('Feature')
  // The page came from a render thread, lowered in priority by Piscina's optional native part.
  expect(threadNiceness(server.process.pid!)).toContain(10)
  const csv = await owner.client.get(`/${owner.workspaceName}/projects/${ids.project}/storymap.csv`)
  expect(csv.status, csv.text).toBe(200)
  const docs = await owner.client.get('/v1/openapi.json')
  expect(docs.status).toBe(200)
  const mcp = await fetch(`${server.url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  })
  expect(mcp.status).toBe(401)

  const copy = path.join(server.dir, 'copy.db')
  execFileSync(process.execPath, ['scripts/backup.mjs', copy], {
    cwd: app,
    env: { ...process.env, DATABASE_PATH: server.dbPath },
  })
  expect(fs.statSync(copy).size).toBeGreaterThan(0)
  expect(fs.readdirSync(server.dir).filter((file) => file.startsWith('copy.db'))).toEqual(['copy.db'])
})
