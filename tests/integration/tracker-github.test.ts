import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bundle, makeBoard } from '../support/board'
import { signUp } from '../support/client'
import { FakeGithub } from '../support/fake-github'
import { featureOf } from '../support/github'
import { startServer, type RunningServer } from '../support/server'

/** GitHub answers on the generic tracker routes too (CONTRACT §14), with §14's codes; §13's routes agree. */
const REPO = 'acme/shop'
let server: RunningServer
let github: FakeGithub

beforeAll(async () => {
  github = await new FakeGithub().start()
  github.addRepo(REPO)
  github.addToken('tok-write', [REPO])
  server = await startServer({ GITHUB_API_URL: github.url, GITHUB_POLL_SECONDS: '1' })
})
afterAll(async () => {
  await server?.stop()
  await github?.stop()
})

describe('GitHub on the generic routes', () => {
  it('links through PUT /tracker, creates an issue through /features/{id}/issue, and refuses with tracker_ codes', async () => {
    const owner = await signUp(server.url, { name: 'Ana' })
    const ids = await makeBoard(owner.client)
    const put = (token: string) =>
      owner.client.put(`/v1/projects/${ids.project}/tracker`, { provider: 'github', repository: REPO, token })
    expect((await put('nope')).json.error).toBe('tracker_token_invalid')
    const res = await put('tok-write')
    expect(res.status, res.text).toBe(200)
    expect(res.json.tracker).toMatchObject({
      provider: 'github',
      project: REPO,
      status: 'ok',
      tokenExpiresAt: null,
      linkedBy: { name: 'Ana' },
    })
    expect((await owner.client.get(`/v1/projects/${ids.project}/github`)).json.github).toMatchObject({
      repository: REPO,
    })
    const created = await owner.client.post(`/v1/features/${ids.feature}/issue`)
    expect(created.status, created.text).toBe(200)
    expect(created.json.github).toMatchObject({ number: 1, state: 'open' })
    expect(created.json.issue).toEqual({
      provider: 'github',
      key: '#1',
      url: created.json.github.url,
      state: 'open',
      status: null,
    })
    const map = await bundle(owner.client, ids.project)
    expect(map.project.tracker).toMatchObject({ provider: 'github' })
    expect(featureOf(map, ids.feature).issue.key).toBe('#1')
    expect((await owner.client.post(`/v1/projects/${ids.project}/tracker/sync`)).status).toBe(200)
    expect((await owner.client.delete(`/v1/projects/${ids.project}/tracker`)).json).toEqual({ tracker: null })
    expect((await owner.client.get(`/v1/projects/${ids.project}/github`)).json).toEqual({ github: null })
    expect((await owner.client.post(`/v1/milestones/${ids.milestone}/issues`)).json.error).toBe(
      'tracker_not_linked',
    )
  })
})
