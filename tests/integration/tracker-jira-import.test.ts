import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bundle, makeBoard } from '../support/board'
import { signUp } from '../support/client'
import { FakeJira } from '../support/fake-jira'
import { featureOf } from '../support/github'
import { startServer, type RunningServer } from '../support/server'

/**
 * Jira Cloud's rate limit and `Import issues` (CONTRACT §14), against the fake Jira: a 429 with
 * `Retry-After` holds every call of that link; an import takes the open issues (status category
 * not `done`) or all of them into one cell as one change, which one undo takes back.
 */
let server: RunningServer
let jira: FakeJira

beforeAll(async () => {
  jira = await new FakeJira().start()
  jira.addProject('LIM')
  jira.addProject('IMP')
  jira.addUser('lim@example.com', 'lim-token')
  jira.addUser('imp@example.com', 'imp-token')
  jira.setStoryPointsField('Story point estimate')
  server = await startServer({ TRACKER_ALLOW_HTTP: 'true', TRACKER_POLL_SECONDS: '1' })
})
afterAll(async () => {
  await server?.stop()
  await jira?.stop()
})

async function linkedBoard(project: string, email: string, token: string) {
  const owner = await signUp(server.url)
  const ids = await makeBoard(owner.client)
  const res = await owner.client.put(`/v1/projects/${ids.project}/tracker`, {
    provider: 'jira',
    url: jira.url,
    project,
    email,
    token,
  })
  expect(res.status, res.text).toBe(200)
  return { owner, ids, cell: { milestoneId: ids.milestone, subWorkflowId: ids.subworkflow } }
}

type Imported = {
  id: string
  title: string
  status: string
  milestoneId: string
  issue: { key: string; state: string; status: string }
}

describe('Jira rate limit', () => {
  it('a 429 with Retry-After is 503 tracker_rate_limited, and no call goes to Jira for that link until then', async () => {
    const { owner, ids } = await linkedBoard('LIM', 'lim@example.com', 'lim-token')
    jira.rateLimitNext(/\/rest\/api\/3\/issue$/, { retryAfter: 30 }, { method: 'POST' })
    const res = await owner.client.post(`/v1/features/${ids.feature}/issue`)
    expect([res.status, res.json.error], res.text).toEqual([503, 'tracker_rate_limited'])
    const wait = Number(res.headers.get('retry-after'))
    expect(wait).toBeGreaterThan(0)
    expect(wait).toBeLessThanOrEqual(30)
    const before = jira.calls.length
    const mine = () =>
      jira.calls
        .slice(before)
        .filter((c) =>
          String(c.headers.authorization ?? '').includes(
            Buffer.from('lim@example.com:lim-token').toString('base64'),
          ),
        )
    const again = await owner.client.post(`/v1/features/${ids.feature}/issue`)
    expect([again.status, again.json.error]).toEqual([503, 'tracker_rate_limited'])
    const sync = await owner.client.post(`/v1/projects/${ids.project}/tracker/sync`)
    expect([sync.status, sync.json.error]).toEqual([503, 'tracker_rate_limited'])
    // Polls included: a few poll periods go by without a call.
    await new Promise((resolve) => setTimeout(resolve, 2500))
    expect(mine()).toEqual([])
    expect((await owner.client.get(`/v1/projects/${ids.project}/tracker`)).json.tracker.status).toBe(
      'rate_limited',
    )
    expect(featureOf(await bundle(owner.client, ids.project), ids.feature).issue).toBeNull()
  })
})

describe('Jira import', () => {
  it('imports the open issues (status category not done), then all, into one cell as one change each, undoable', async () => {
    const { owner, ids, cell } = await linkedBoard('IMP', 'imp@example.com', 'imp-token')
    const todo = jira.seedIssue('IMP', { summary: 'Checkout', labels: ['Needs-design'] })
    const doing = jira.seedIssue('IMP', { summary: 'Payments', status: 'In Progress' })
    const done = jira.seedIssue('IMP', { summary: 'Login', status: 'Done' })
    const added = (map: Awaited<ReturnType<typeof bundle>>) =>
      (map.features as Imported[]).filter((f) => f.id !== ids.feature)

    const before = await bundle(owner.client, ids.project)
    const open = await owner.client.post(`/v1/projects/${ids.project}/tracker/import`, {
      ...cell,
      state: 'open',
    })
    expect(open.json, open.text).toEqual({ imported: 2 })
    const map = await bundle(owner.client, ids.project)
    expect(map.version).toBe(before.version + 1)
    const features = added(map)
    expect(features.map((f) => f.title).sort()).toEqual(['Checkout', 'Payments'])
    for (const f of features) expect(f).toMatchObject({ milestoneId: ids.milestone, status: 'OPEN' })
    expect(features.map((f) => f.issue.key).sort()).toEqual([todo.key, doing.key].sort())
    expect(features.find((f) => f.title === 'Payments')!.issue).toMatchObject({
      provider: 'jira',
      state: 'open',
      status: 'In Progress',
    })
    const lines = (await owner.client.get(`/v1/projects/${ids.project}/activity`)).json.items
    expect(lines[0].summary).toBe(
      "Imported 2 Jira issues into release 'Release' › activity 'Activity' of project 'Map'",
    )

    const undo = await owner.client.post(`/v1/projects/${ids.project}/undo`)
    expect(undo.json.summary).toBe(
      "Undid: Imported 2 Jira issues into release 'Release' › activity 'Activity' of project 'Map'",
    )
    expect(added(await bundle(owner.client, ids.project))).toEqual([])

    const all = await owner.client.post(`/v1/projects/${ids.project}/tracker/import`, {
      ...cell,
      state: 'all',
    })
    expect(all.json).toEqual({ imported: 3 })
    const imported = added(await bundle(owner.client, ids.project))
    expect(imported.find((f) => f.title === 'Login')).toMatchObject({
      status: 'CLOSED',
      issue: { key: done.key, state: 'closed', status: 'Done' },
    })
    const again = await owner.client.post(`/v1/projects/${ids.project}/tracker/import`, {
      ...cell,
      state: 'all',
    })
    expect(again.json).toEqual({ imported: 0 })
  })
})
