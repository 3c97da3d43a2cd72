import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client, signUp } from '../support/client'
import { startServer, type RunningServer } from '../support/server'

describe('APP_MODE=hosted with SIGNUP=invite-only', () => {
  let server: RunningServer
  beforeAll(async () => {
    server = await startServer({ APP_MODE: 'hosted', TRIAL_DAYS: '14', SIGNUP: 'invite-only' })
  })
  afterAll(async () => {
    await server?.stop()
  })

  it('refuses sign-up without an invitation', async () => {
    const res = await new Client(server.url).post('/v1/users/signup', {
      workspaceName: 'closed',
      name: 'Eve',
      email: 'eve@example.com',
      password: 'secret123',
    })
    expect(res.status).toBe(403)
    expect(res.json.error).toBe('signup_closed')
  })
})

describe('APP_MODE=hosted', () => {
  let server: RunningServer
  beforeAll(async () => {
    server = await startServer({ APP_MODE: 'hosted', TRIAL_DAYS: '14' })
  })
  afterAll(async () => {
    await server?.stop()
  })

  it('starts every new workspace on a TRIAL of TRIAL_DAYS', async () => {
    const user = await signUp(server.url)
    await user.client.post('/v1/account/workspaces', { name: `more${Math.floor(Math.random() * 1e9)}` })
    const app = (await user.client.get('/v1/account/app')).json
    expect(app.mode).toBe('hosted')
    expect(app.subscriptions).toHaveLength(2)
    for (const sub of app.subscriptions) {
      expect(sub.level).toBe('TRIAL')
      expect(sub.externalStatus).toBe('trialing')
      const days = (Date.parse(sub.expirationDate) - Date.parse(sub.fromDate)) / 86_400_000
      expect(days).toBeCloseTo(14, 3)
    }
  })
})

describe('start-up', () => {
  it('stops with a one-line message naming a bad variable', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'storymap-env-'))
    for (const [name, value] of [
      ['PORT', 'eighty'],
      ['APP_MODE', 'cloud'],
      ['TRIAL_DAYS', '-1'],
      ['SMTP_URL', 'http://mail'],
    ]) {
      const run = spawnSync(process.execPath, ['build/server.js'], {
        env: {
          PATH: process.env.PATH,
          DATABASE_PATH: path.join(dir, 'db.sqlite'),
          NODE_ENV: 'production',
          [name]: value,
        },
        encoding: 'utf8',
        timeout: 15_000,
      })
      expect(run.status).toBe(1)
      const lines = run.stderr.trim().split('\n')
      expect(lines).toHaveLength(1)
      expect(lines[0]).toContain(name)
    }
  })

  it('creates the database folder, applies migrations and keeps a generated session secret', async () => {
    const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'storymap-fresh-')), 'nested', 'data')
    const first = await startServer({ DATABASE_PATH: path.join(dir, 'app.db') })
    const user = await signUp(first.url)
    const secret = fs.readFileSync(path.join(dir, 'session-secret'), 'utf8')
    expect(await first.stop()).toBe(0)
    const second = await startServer({ DATABASE_PATH: path.join(dir, 'app.db') })
    expect(fs.readFileSync(path.join(dir, 'session-secret'), 'utf8')).toBe(secret)
    const again = new Client(second.url)
    again.cookies = user.client.cookies
    expect((await again.get('/v1/account/app')).status).toBe(200)
    expect(await second.stop()).toBe(0)
  })
})
