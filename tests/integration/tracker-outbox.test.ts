import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makeBoard } from '../support/board'
import { Client, signUp } from '../support/client'
import { DEVELOPER, FakeGitlab } from '../support/fake-gitlab'
import { eventually, rows } from '../support/github'
import { startServer, type RunningServer } from '../support/server'

/**
 * The connector's outbox (CONTRACT §13 and §14) with GitLab: a 5xx on a push keeps the push
 * waiting and retries it with back-off until GitLab answers again; pushes waiting while GitLab is
 * down are still sent after a restart of the server on the same database.
 */
let server: RunningServer
let gitlab: FakeGitlab
let count = 0
const env = () => ({ TRACKER_ALLOW_HTTP: 'true', TRACKER_POLL_SECONDS: '1' })

beforeAll(async () => {
  gitlab = await new FakeGitlab().start()
  server = await startServer(env())
})
afterAll(async () => {
  await server?.stop()
  await gitlab?.stop()
})

/** A board linked to a GitLab project of its own, its feature with an issue. */
async function pushedBoard() {
  const path = `acme/outbox-${++count}`
  gitlab.addProject(path)
  gitlab.addToken(`glpat-${count}`, { projects: { [path]: DEVELOPER } })
  const owner = await signUp(server.url)
  const ids = await makeBoard(owner.client)
  const res = await owner.client.put(`/v1/projects/${ids.project}/tracker`, {
    provider: 'gitlab',
    url: gitlab.url,
    project: path,
    token: `glpat-${count}`,
  })
  expect(res.status, res.text).toBe(200)
  const iid = Number((await owner.client.post(`/v1/features/${ids.feature}/issue`)).json.issue.key.slice(1))
  return { owner, ids, path, iid }
}

const waiting = (featureId: string) =>
  rows(server.dbPath, 'select attempt, next_at from github_outbox where feature_id = ?', featureId)

describe('the outbox', () => {
  it('a 5xx on a push keeps it waiting and retries with back-off until GitLab answers', async () => {
    const { owner, ids, path, iid } = await pushedBoard()
    const put = new RegExp(`/issues/${iid}$`)
    const puts = () => gitlab.calls.filter((c) => c.method === 'PUT' && put.test(c.path))
    gitlab.failNext(put, 502, { method: 'PUT', times: 2 })
    await owner.client.post(`/v1/features/${ids.feature}/rename`, { title: 'Renamed here' })
    const first = await eventually(
      () => waiting(ids.feature),
      (r) => r.length > 0 && r[0].attempt >= 1,
    )
    // Not sent again at once: the next try waits its back-off.
    expect(Date.parse(first[0].next_at as string)).toBeGreaterThan(Date.now() - 500)
    expect((await owner.client.get(`/v1/projects/${ids.project}/tracker`)).json.tracker.status).toBe(
      'unreachable',
    )
    const log = (await owner.client.get(`/v1/projects/${ids.project}/tracker/log`)).json.items
    expect(log[0]).toMatchObject({ direction: 'push', action: 'update', status: 'retrying' })

    await eventually(
      () => gitlab.issue(path, iid)!.title,
      (t) => t === 'Renamed here',
      20_000,
    )
    expect(puts().map((c) => c.status)).toEqual([502, 502, 200])
    // Each retry waited longer than the one before.
    const [a, b, c] = puts().map((call) => call.at)
    expect(c - b).toBeGreaterThan(b - a)
    await eventually(
      () => waiting(ids.feature),
      (r) => r.length === 0,
    )
    expect(
      (
        await eventually(
          async () => (await owner.client.get(`/v1/projects/${ids.project}/tracker`)).json.tracker,
          (t) => t.status === 'ok',
        )
      ).error,
    ).toBeNull()
  }, 30_000)

  it('loses nothing across a restart: a push queued while GitLab is down goes out from the new process', async () => {
    const { owner, ids, path, iid } = await pushedBoard()
    const put = new RegExp(`/issues/${iid}$`)
    gitlab.failNext(put, 503, { method: 'PUT', times: 1000 })
    await owner.client.post(`/v1/features/${ids.feature}/close`)
    await eventually(
      () => waiting(ids.feature),
      (r) => r.length > 0 && r[0].attempt >= 1,
    )
    expect(await server.stop()).toBe(0)
    gitlab.clearFailures()
    expect(gitlab.issue(path, iid)!.state).toBe('opened')
    server = await startServer(env(), { dir: server.dir })
    await eventually(
      () => gitlab.issue(path, iid)!.state,
      (s) => s === 'closed',
      20_000,
    )
    await eventually(
      () => waiting(ids.feature),
      (r) => r.length === 0,
    )
  }, 40_000)

  it('a link whose address now leads inside goes nowhere once private addresses are not allowed', async () => {
    const { owner, ids, path, iid } = await pushedBoard()
    expect(await server.stop()).toBe(0)
    // The same database, served as a hosted server that may not reach its own network (GitLab's fake is on loopback).
    server = await startServer({ ...env(), TRACKER_ALLOW_PRIVATE: 'false' }, { dir: server.dir })
    // The same browser (its session is in the database) at the new process's address.
    const client = new Client(server.url, owner.client.workspaceId)
    client.cookies = owner.client.cookies
    try {
      const callsBefore = gitlab.calls.length
      const synced = await client.post(`/v1/projects/${ids.project}/tracker/sync`)
      expect([synced.status, synced.json.error]).toEqual([502, 'tracker_unreachable'])
      expect(synced.json.message).toMatch(/loopback, private or link-local/)
      await client.post(`/v1/features/${ids.feature}/close`)
      await eventually(
        () => waiting(ids.feature),
        (r) => r.length > 0 && r[0].attempt >= 1,
      )
      expect(gitlab.calls.length).toBe(callsBefore)
      expect(gitlab.issue(path, iid)!.state).toBe('opened')
      const log = (await client.get(`/v1/projects/${ids.project}/tracker/log`)).json
      expect(JSON.stringify(log)).toMatch(/loopback, private or link-local/)
    } finally {
      expect(await server.stop()).toBe(0)
      server = await startServer(env(), { dir: server.dir })
    }
  }, 40_000)
})
