import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Client, signUp } from '../support/client'
import { startServer, type RunningServer } from '../support/server'

let server: RunningServer
beforeAll(async () => {
  server = await startServer()
})
afterAll(async () => {
  await server?.stop()
})

const form = (fields: Record<string, string>) => new URLSearchParams(fields)

describe('page routing (SPEC §2)', () => {
  it('sends a visitor without a session to the log-in page', async () => {
    const res = await new Client(server.url).get('/')
    expect(res.status).toBe(302)
    expect(res.headers.get('location')).toBe('/account/login')
    const deep = await new Client(server.url).get('/someworkspace')
    expect(deep.headers.get('location')).toBe('/account/login?redirectTo=%2Fsomeworkspace')
  })

  it('redirects / to the only workspace, or to the list when there are several', async () => {
    const user = await signUp(server.url)
    const one = await user.client.get('/')
    expect(one.headers.get('location')).toBe(`/${user.workspaceName}`)
    await user.client.post('/v1/account/workspaces', { name: `other${Math.floor(Math.random() * 1e9)}` })
    const two = await user.client.get('/')
    expect(two.headers.get('location')).toBe('/account/workspaces')
  })

  it('redirects an unknown or foreign workspace to /', async () => {
    const ann = await signUp(server.url)
    const bob = await signUp(server.url)
    expect((await ann.client.get('/nosuchworkspace')).headers.get('location')).toBe('/')
    expect((await ann.client.get(`/${bob.workspaceName}`)).headers.get('location')).toBe('/')
  })

  it('shows the project list with the header and account menu', async () => {
    const user = await signUp(server.url)
    const res = await user.client.get(`/${user.workspaceName}`)
    expect(res.status).toBe(200)
    for (const text of [
      'Projects',
      'No projects',
      '0 projects',
      'Workspace settings',
      'My workspaces',
      user.email,
      'Account settings',
      'Log out',
    ]) {
      expect(res.text).toContain(text)
    }
  })
})

describe('forms without JavaScript', () => {
  it('sign-up shows SPEC messages after a server round trip', async () => {
    const res = await new Client(server.url).post(
      '/account/signup',
      form({ workspaceName: 'Bad Name', name: '', email: 'nope', password: '123' }),
    )
    expect(res.status).toBe(200)
    expect(res.text).toContain('Lowercase alphanumerics only. Spaces not allowed.')
    expect(res.text).toContain('Required.')
    expect(res.text).toContain('Invalid email address.')
    expect(res.text).toContain('Minimum 6 characters.')
  })

  it('sign-up reports a taken e-mail on the e-mail field', async () => {
    const user = await signUp(server.url)
    const res = await new Client(server.url).post(
      '/account/signup',
      form({
        workspaceName: `new${Math.floor(Math.random() * 1e9)}`,
        name: 'X',
        email: user.email,
        password: 'secret123',
      }),
    )
    expect(res.text).toContain('Email is already registered.')
  })

  it('log-in refuses a wrong password, then logs in and redirects', async () => {
    const user = await signUp(server.url)
    const client = new Client(server.url)
    const bad = await client.post('/account/login', form({ email: user.email, password: 'wrong-one' }))
    expect(bad.text).toContain('Email or password is incorrect.')
    const empty = await client.post('/account/login', form({ email: '', password: '' }))
    expect(empty.text).toContain('Email required.')
    expect(empty.text).toContain('Password required.')
    const ok = await client.post(
      '/account/login',
      form({ email: user.email, password: user.password, redirectTo: '//evil.example' }),
    )
    expect(ok.status).toBe(302)
    expect(ok.headers.get('location')).toBe('/')
    expect((await client.get('/v1/account/app')).status).toBe(200)
  })

  it('the create-workspace form shows "The name is already taken."', async () => {
    const user = await signUp(server.url)
    const res = await user.client.post('/account/workspaces?new=1', form({ name: user.workspaceName }))
    expect(res.text).toContain('The name is already taken.')
  })
})
