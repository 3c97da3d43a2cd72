import { sign } from '@octokit/webhooks-methods'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bundle, makeBoard, uuid } from '../support/board'
import { signUp } from '../support/client'
import { FakeGithub } from '../support/fake-github'
import { eventually, featureOf, link, pollsOf } from '../support/github'
import { startReceiver } from '../support/receiver'
import { startServer, type RunningServer } from '../support/server'

/**
 * GitHub's webhooks (signed, immediate) and `Import issues` (CONTRACT §13). Polling is an hour
 * apart here, so what changes is the webhook's doing.
 */
const REPO = 'acme/shop'
let server: RunningServer
let github: FakeGithub
let receiver: Awaited<ReturnType<typeof startReceiver>>

beforeAll(async () => {
  github = await new FakeGithub().start()
  github.addRepo(REPO)
  github.addToken('tok', [REPO])
  receiver = await startReceiver()
  server = await startServer({
    GITHUB_API_URL: github.url,
    GITHUB_POLL_SECONDS: '3600',
    WEBHOOKS_ALLOW_HTTP: 'true',
    WEBHOOKS_ALLOW_PRIVATE: 'true',
  })
})
afterAll(async () => {
  await server?.stop()
  await github?.stop()
  await receiver?.close()
})

async function deliver(projectId: string, event: string, payload: unknown, secret: string | null) {
  const body = JSON.stringify(payload)
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'X-GitHub-Event': event,
    'X-GitHub-Delivery': uuid(),
  }
  if (secret !== null) headers['X-Hub-Signature-256'] = await sign(secret, body)
  return fetch(`${server.url}/v1/github/webhook/${projectId}`, { method: 'POST', headers, body })
}

describe('webhooks from GitHub', () => {
  it('take signed issues events at once, as the linking member via GitHub, on to §10 webhooks; refuse bad signatures', async () => {
    const owner = await signUp(server.url, { name: 'Cy' })
    const ids = await makeBoard(owner.client)
    const { webhookSecret } = await link(owner.client, ids.project, REPO, 'tok')
    const number = (await owner.client.post(`/v1/features/${ids.feature}/github`)).json.github.number
    const hook = await owner.client.post('/v1/webhooks', {
      url: receiver.url,
      events: ['change'],
      projectId: ids.project,
    })
    expect(hook.status).toBe(201)

    expect((await deliver(ids.project, 'ping', { zen: 'Keep it simple.' }, webhookSecret)).status).toBe(200)
    const closed = github.edit(REPO, number, { state: 'closed' })
    const payload = { action: 'closed', issue: closed, repository: { full_name: REPO } }
    const before = await bundle(owner.client, ids.project)
    for (const secret of [null, 'wrong'])
      expect((await deliver(ids.project, 'issues', payload, secret)).status).toBe(401)
    const garbled = await fetch(`${server.url}/v1/github/webhook/${ids.project}`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'X-GitHub-Event': 'issues',
        'X-Hub-Signature-256': 'sha256=00',
      },
      body: JSON.stringify(payload),
    })
    expect(garbled.status).toBe(401)
    expect((await deliver(uuid(), 'issues', payload, webhookSecret)).status).toBe(401)
    expect((await bundle(owner.client, ids.project)).version).toBe(before.version)

    const res = await deliver(ids.project, 'issues', payload, webhookSecret)
    expect(res.status).toBe(200)
    const after = await bundle(owner.client, ids.project)
    expect(featureOf(after, ids.feature)).toMatchObject({
      status: 'CLOSED',
      github: { number, state: 'closed' },
    })
    const [line] = (await owner.client.get(`/v1/projects/${ids.project}/activity`)).json.items
    expect(line).toMatchObject({ summary: "Closed feature 'Feature'", by: { name: 'Cy', via: 'GitHub' } })
    const [delivery] = await receiver.waitFor(1)
    expect(delivery.json).toMatchObject({
      type: 'change',
      by: { via: 'GitHub' },
      changes: [{ kind: 'feature', entity: { id: ids.feature, status: 'CLOSED' } }],
    })

    // The same event again changes nothing; an issue deleted on GitHub marks the link missing.
    expect((await deliver(ids.project, 'issues', payload, webhookSecret)).status).toBe(200)
    expect((await bundle(owner.client, ids.project)).version).toBe(after.version)
    expect(
      (await deliver(ids.project, 'issues', { ...payload, action: 'deleted' }, webhookSecret)).status,
    ).toBe(200)
    expect(featureOf(await bundle(owner.client, ids.project), ids.feature).github.state).toBe('missing')
  })

  it("let a later map change win over an earlier GitHub one (Activity says so), and ignore late deliveries and another repository's events", async () => {
    const [repo, next] = ['acme/late', 'acme/next']
    github.addRepo(repo)
    github.addRepo(next)
    github.addToken('tok3', [repo, next])
    const owner = await signUp(server.url, { name: 'Di' })
    const ids = await makeBoard(owner.client)
    const { webhookSecret } = await link(owner.client, ids.project, repo, 'tok3')
    await eventually(
      () => pollsOf(github, repo).length,
      (n) => n > 0,
    )
    const number = (await owner.client.post(`/v1/features/${ids.feature}/github`)).json.github.number
    const early = github.edit(repo, number, { title: 'Early on GitHub' })
    const event = (issue: unknown, from = repo) => ({
      action: 'edited',
      issue,
      repository: { full_name: from },
    })

    // The map renames a second later (GitHub's times have whole seconds); its push fails for now.
    await eventually(
      () => Date.now(),
      (now) => Math.floor(now / 1000) > Date.parse(early.updated_at) / 1000,
      2000,
    )
    github.failNext(new RegExp(`^/repos/${repo}/issues/${number}$`), 500)
    await owner.client.post(`/v1/features/${ids.feature}/rename`, { title: 'Later on the map' })
    await eventually(
      () => github.callsTo('PATCH', new RegExp(`^/repos/${repo}/`)).filter((c) => c.status === 500).length,
      (n) => n > 0,
    )
    expect((await deliver(ids.project, 'issues', event(early), webhookSecret)).status).toBe(200)
    const [line] = (await owner.client.get(`/v1/projects/${ids.project}/activity`)).json.items
    expect(line).toMatchObject({
      summary:
        "Kept feature 'Later on the map' as it is on the map (title changed on both sides, Storymap's change was later and wins)",
      by: { name: 'Di', via: 'GitHub' },
    })
    // The retried push takes the map's title to GitHub; a late second delivery of the early state changes nothing.
    await eventually(
      () => github.issue(repo, number)!.title,
      (title) => title === 'Later on the map',
    )
    const settled = await bundle(owner.client, ids.project)
    expect((await deliver(ids.project, 'issues', event(early), webhookSecret)).status).toBe(200)
    expect((await bundle(owner.client, ids.project)).version).toBe(settled.version)

    // Relinked to another repository (the secret is kept), whose issue #1 is another feature's:
    // a hook left on the old repository changes nothing.
    await link(owner.client, ids.project, next, 'tok3')
    const other = (
      await owner.client.post(`/v1/features/${uuid()}`, {
        milestoneId: ids.milestone,
        subWorkflowId: ids.subworkflow,
        title: 'Other',
      })
    ).json
    expect((await owner.client.post(`/v1/features/${other.id}/github`)).json.github).toMatchObject({
      number: 1,
      url: `https://github.com/${next}/issues/1`,
    })
    const before = await bundle(owner.client, ids.project)
    const closedThere = github.edit(repo, 1, { state: 'closed' })
    expect(
      (await deliver(ids.project, 'issues', { ...event(closedThere), action: 'closed' }, webhookSecret))
        .status,
    ).toBe(200)
    const after = await bundle(owner.client, ids.project)
    expect(after.version).toBe(before.version)
    expect(featureOf(after, other.id).status).toBe('OPEN')
  })
})

it('Sync now pulls at once what changed on GitHub, and answers how many features changed', async () => {
  github.addRepo('acme/now')
  github.addToken('tok4', ['acme/now'])
  const owner = await signUp(server.url)
  const ids = await makeBoard(owner.client)
  await link(owner.client, ids.project, 'acme/now', 'tok4')
  const { number } = (await owner.client.post(`/v1/features/${ids.feature}/github`)).json.github
  github.edit('acme/now', number, { title: 'Renamed on GitHub', state: 'closed' })
  const synced = await owner.client.post(`/v1/projects/${ids.project}/github/sync`)
  expect(synced.json).toEqual({ pulled: 1, lastSyncAt: expect.any(String) })
  expect(featureOf(await bundle(owner.client, ids.project), ids.feature)).toMatchObject({
    title: 'Renamed on GitHub',
    status: 'CLOSED',
  })
  const [entry] = (await owner.client.get(`/v1/projects/${ids.project}/github/log`)).json.items
  expect(entry).toEqual({
    at: expect.any(String),
    direction: 'pull',
    featureId: ids.feature,
    issue: number,
    action: 'title, state',
    status: 'ok',
    error: null,
  })
  expect((await owner.client.post(`/v1/projects/${ids.project}/github/sync`)).json.pulled).toBe(0)
})

describe('import', () => {
  it('adds one linked feature per matching issue, in number order, as one undoable change; pull requests and linked issues are skipped', async () => {
    const owner = await signUp(server.url)
    const ids = await makeBoard(owner.client)
    github.addRepo('acme/tracker')
    github.addToken('tok2', ['acme/tracker'])
    await link(owner.client, ids.project, 'acme/tracker', 'tok2')
    const repo = 'acme/tracker'
    github.seedIssue(repo, { title: 'Login', body: 'Email and password', labels: ['Bug', 'auth'] })
    github.seedIssue(repo, { title: 'Old', labels: ['bug'], state: 'closed' })
    github.seedIssue(repo, { title: 'A pull request', labels: ['bug'], pullRequest: true })
    github.seedIssue(repo, { title: 'Docs' })
    github.seedIssue(repo, { title: 'Crash', labels: ['BUG'] })
    const tagId = uuid()
    await owner.client.post(`/v1/tags/${tagId}`, { projectId: ids.project, name: 'bug', color: 'RED' })
    const cell = { milestoneId: ids.milestone, subWorkflowId: ids.subworkflow }

    const res = await owner.client.post(`/v1/projects/${ids.project}/github/import`, {
      ...cell,
      labels: ['bug'],
      state: 'all',
    })
    expect(res.json).toEqual({ imported: 3 })
    const map = await bundle(owner.client, ids.project)
    const imported = map.features.filter((f: { github: unknown }) => f.github)
    expect(imported.map((f: { title: string }) => f.title)).toEqual(['Login', 'Old', 'Crash'])
    expect(imported[0]).toMatchObject({
      description: 'Email and password',
      status: 'OPEN',
      milestoneId: ids.milestone,
      subWorkflowId: ids.subworkflow,
      github: { number: 1, state: 'open' },
    })
    expect(imported[1]).toMatchObject({ status: 'CLOSED', github: { number: 2, state: 'closed' } })
    const auth = map.tags.find((t: { name: string }) => t.name === 'auth')
    expect(auth.color).toBe('BLUE')
    expect(imported[0].tagIds).toEqual([tagId, auth.id])
    const lines = (await owner.client.get(`/v1/projects/${ids.project}/activity`)).json.items
    expect(lines[0].summary).toBe(
      "Imported 3 GitHub issues into release 'Release' › activity 'Activity' of project 'Map'",
    )

    // Open issues only by default; those already linked are left out.
    expect((await owner.client.post(`/v1/projects/${ids.project}/github/import`, cell)).json).toEqual({
      imported: 1,
    })
    const undo = await owner.client.post(`/v1/projects/${ids.project}/undo`)
    expect(undo.json.summary).toBe(
      "Undid: Imported 1 GitHub issue into release 'Release' › activity 'Activity' of project 'Map'",
    )
    expect((await owner.client.post(`/v1/projects/${ids.project}/undo`)).status).toBe(200)
    const emptied = await bundle(owner.client, ids.project)
    expect(emptied.features.map((f: { id: string }) => f.id)).toEqual([ids.feature])
    expect(emptied.tags.map((t: { name: string }) => t.name)).toEqual(['bug'])
    expect(
      await owner.client.post(`/v1/projects/${ids.project}/github/import`, { ...cell, state: 'some' }),
    ).toMatchObject({ status: 400 })
  })
})
