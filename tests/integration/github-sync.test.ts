import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bundle, makeBoard, uuid } from '../support/board'
import { signUp, type Client } from '../support/client'
import { FakeGithub } from '../support/fake-github'
import { afterPolls, eventually, featureOf, link, pollsOf, rows } from '../support/github'
import { LiveStream } from '../support/live'
import { startServer, type RunningServer } from '../support/server'

/**
 * Both ways between a map and GitHub Issues (CONTRACT §13), against the fake GitHub: pushes from
 * the card dialog and a release, later edits through the outbox, polls pulling GitHub's edits
 * through the one door, no ping-pong, and the conflict rule.
 */
let server: RunningServer
let github: FakeGithub
let repos = 0

beforeAll(async () => {
  github = await new FakeGithub().start()
  server = await startServer({ GITHUB_API_URL: github.url, GITHUB_POLL_SECONDS: '1' })
})
afterAll(async () => {
  await server?.stop()
  await github?.stop()
})

/** A board linked to a repository of its own (so every poll of that repository is this board's). */
async function linkedBoard(name = 'Ana') {
  const repo = `acme/shop${++repos}`
  github.addRepo(repo)
  github.addToken(`tok${repos}`, [repo])
  const owner = await signUp(server.url, { name })
  const ids = await makeBoard(owner.client)
  await link(owner.client, ids.project, repo, `tok${repos}`)
  return { owner, ids, repo }
}

const push = async (client: Client, featureId: string) => {
  const res = await client.post(`/v1/features/${featureId}/github`)
  expect(res.status, res.text).toBe(200)
  return res.json.github as { number: number; url: string; state: string }
}

const summaries = async (client: Client, projectId: string) =>
  (await client.get(`/v1/projects/${projectId}/activity`)).json.items as {
    summary: string
    by: { name: string; via?: string }
  }[]

describe('Storymap → GitHub', () => {
  it('creates the issue: title, body with the footer, labels from tags in their colours; the tile and the event get #n', async () => {
    const { owner, ids, repo } = await linkedBoard()
    const tagId = uuid()
    expect(
      (
        await owner.client.post(`/v1/tags/${tagId}`, {
          projectId: ids.project,
          name: 'Payments',
          color: 'RED',
        })
      ).status,
    ).toBe(200)
    await owner.client.post(`/v1/features/${ids.feature}/tags`, { tagIds: [tagId] })
    await owner.client.post(`/v1/features/${ids.feature}/description`, { description: 'Cards and *wallets*' })
    const stream = await LiveStream.open(server.url, `/v1/projects/${ids.project}/events`, {
      client: owner.client,
    })
    await stream.next('ready')

    const res = await owner.client.post(`/v1/features/${ids.feature}/github`)
    expect(res.status, res.text).toBe(200)
    expect(res.json).toMatchObject({
      id: ids.feature,
      title: 'Feature',
      github: { number: 1, url: `https://github.com/${repo}/issues/1`, state: 'open' },
    })
    const issue = github.issue(repo, res.json.github.number)!
    expect(issue.title).toBe('Feature')
    expect(issue.body).toMatch(
      new RegExp(
        `^Cards and \\*wallets\\*\n\n---\nStory map: http://localhost:\\d+/ws\\w+/projects/${ids.project}/f/${ids.feature} · Release · Goal › Activity$`,
      ),
    )
    expect(issue.labels.map((l) => l.name)).toEqual(['Payments'])
    expect(github.labels(repo).find((l) => l.name === 'Payments')?.color).toBe('fa5252')

    const event = await stream.next('change')
    expect(event.data.changes).toEqual([
      {
        op: 'upsert',
        kind: 'feature',
        entity: expect.objectContaining({ id: ids.feature, github: res.json.github }),
      },
    ])
    expect(event.data.summary).toBe(`Created GitHub issue #${res.json.github.number} for feature 'Feature'`)
    stream.close()
    expect((await owner.client.post(`/v1/features/${ids.feature}/github`)).json.error).toBe('already_linked')
    // Not an undo step: the last undoable change is the description.
    expect((await owner.client.post(`/v1/projects/${ids.project}/undo`)).json.summary).toMatch(
      /^Undid: .*description/i,
    )
  })

  it('sends a release: every open feature without an issue, in board order', async () => {
    const { owner, ids, repo } = await linkedBoard()
    const more = [uuid(), uuid(), uuid()]
    for (const [i, id] of more.entries())
      await owner.client.post(`/v1/features/${id}`, {
        milestoneId: ids.milestone,
        subWorkflowId: ids.subworkflow,
        title: `F${i}`,
      })
    await owner.client.post(`/v1/features/${more[1]}/close`)
    const before = github.issues(repo).length
    const res = await owner.client.post(`/v1/milestones/${ids.milestone}/github`)
    expect(res.json).toEqual({ created: 3, failed: [] })
    expect(
      github
        .issues(repo)
        .slice(before)
        .map((i) => i.title),
    ).toEqual(['Feature', 'F0', 'F2'])
    expect((await owner.client.post(`/v1/milestones/${ids.milestone}/github`)).json).toEqual({
      created: 0,
      failed: [],
    })
    const other = await signUp(server.url)
    const unlinked = await makeBoard(other.client)
    expect((await other.client.post(`/v1/features/${unlinked.feature}/github`)).json.error).toBe(
      'github_not_linked',
    )
  })

  it("sends a linked feature's later edits to its issue within 10 s, coalesced, in order", async () => {
    const { owner, ids, repo } = await linkedBoard()
    const { number } = await push(owner.client, ids.feature)
    await owner.client.post(`/v1/features/${ids.feature}/rename`, { title: 'Pay by card' })
    await owner.client.post(`/v1/features/${ids.feature}/description`, { description: 'Visa first' })
    await owner.client.post(`/v1/features/${ids.feature}/close`)
    const issue = await eventually(
      () => github.issue(repo, number)!,
      (i) => i.state === 'closed' && i.title === 'Pay by card',
      10_000,
    )
    expect(issue.body).toMatch(/^Visa first\n\n---\nStory map: .* · Release · Goal › Activity$/)
    const map = await eventually(
      () => bundle(owner.client, ids.project),
      (b) => featureOf(b, ids.feature).github.state === 'closed',
    )
    expect(featureOf(map, ids.feature).status).toBe('CLOSED')
    // The push does not come back as a change (no ping-pong): after polls, the last change is the issue's state.
    await afterPolls(github, repo)
    const lines = await summaries(owner.client, ids.project)
    expect(lines[0].summary).toBe(`GitHub issue #${number} of feature 'Pay by card' is closed`)
    expect(lines.filter((l) => l.by.via === 'GitHub')).toHaveLength(1)

    // Deleting the feature leaves its issue alone.
    const calls = github.calls.filter((c) => c.method !== 'GET').length
    expect((await owner.client.delete(`/v1/features/${ids.feature}`)).status).toBe(200)
    await afterPolls(github, repo)
    expect(github.calls.filter((c) => c.method !== 'GET')).toHaveLength(calls)
    expect(github.issue(repo, number)).toMatchObject({ title: 'Pay by card', state: 'closed' })
  })
})

describe('GitHub → Storymap', () => {
  it('pulls closed, renamed, re-described and relabelled issues as the linking member via GitHub, live, undoable', async () => {
    const { owner, ids, repo } = await linkedBoard('Bea')
    const { number } = await push(owner.client, ids.feature)
    const tagId = uuid()
    await owner.client.post(`/v1/tags/${tagId}`, { projectId: ids.project, name: 'Bug', color: 'RED' })
    const stream = await LiveStream.open(server.url, `/v1/projects/${ids.project}/events`, {
      client: owner.client,
    })
    await stream.next('ready')

    const patches = github.callsTo('PATCH', /\/issues\/\d+$/).length
    github.edit(repo, number, {
      state: 'closed',
      title: 'Checkout',
      body: 'New words\n\n---\nStory map: http://x · R · G › A',
      labels: ['bug', 'Urgent'],
    })
    const event = await stream.next('change', 8000)
    expect(event.data.by).toEqual({ memberId: expect.any(String), name: 'Bea', via: 'GitHub' })
    expect(event.data.summary).toBe(
      "Renamed feature 'Feature' to 'Checkout', closed feature 'Checkout', changed the description of feature 'Checkout', changed the tags of feature 'Checkout'",
    )
    const map = await bundle(owner.client, ids.project)
    const feature = featureOf(map, ids.feature)
    expect(feature).toMatchObject({
      title: 'Checkout',
      description: 'New words',
      status: 'CLOSED',
      github: { number, state: 'closed' },
    })
    const urgent = map.tags.find((t: { name: string }) => t.name === 'Urgent')
    expect(urgent).toMatchObject({ color: 'BLUE' })
    expect(feature.tagIds.sort()).toEqual([tagId, urgent.id].sort())
    stream.close()

    // Nothing went back to GitHub for it.
    await afterPolls(github, repo)
    expect(github.callsTo('PATCH', /\/issues\/\d+$/).length).toBe(patches)

    const undone = await owner.client.post(`/v1/projects/${ids.project}/undo`)
    expect(undone.json.summary).toMatch(/^Undid: Renamed feature 'Feature' to 'Checkout'/)
    const issue = await eventually(
      () => github.issue(repo, number)!,
      (i) => i.state === 'open' && i.title === 'Feature',
    )
    expect(issue.labels.map((l) => l.name)).toEqual([])
  })

  it('costs nothing when nothing changed: the poll is a 304, and nothing is written', async () => {
    const { owner, ids, repo } = await linkedBoard()
    await push(owner.client, ids.feature)
    await eventually(
      () => pollsOf(github, repo).at(-1)?.status,
      (status) => status === 304,
    )
    const version = (await bundle(owner.client, ids.project)).version
    const lastSync = (await owner.client.get(`/v1/projects/${ids.project}/github`)).json.github.lastSyncAt
    const stored = () =>
      rows(
        server.dbPath,
        'select * from github_links l left join tracker_issues i on i.project_id = l.project_id where l.project_id = ?',
        ids.project,
      )
    const before = { rows: stored(), polls: pollsOf(github, repo).length }
    await afterPolls(github, repo)
    const quiet = pollsOf(github, repo).slice(before.polls)
    expect(quiet.length).toBeGreaterThanOrEqual(2)
    expect(quiet.filter((c) => c.status !== 304)).toEqual([])
    expect(stored()).toEqual(before.rows)
    expect((await bundle(owner.client, ids.project)).version).toBe(version)
    // The time of the last (quiet) poll still shows, kept in memory.
    expect(
      (await owner.client.get(`/v1/projects/${ids.project}/github`)).json.github.lastSyncAt > lastSync,
    ).toBe(true)
  })

  it('lets the later change win when both sides changed a field, and says so', async () => {
    const { owner, ids, repo } = await linkedBoard()
    const { number } = await push(owner.client, ids.feature)
    // The map's rename cannot reach GitHub yet; then GitHub renames too, later.
    github.failNext(/\/issues\/\d+$/, 500)
    await owner.client.post(`/v1/features/${ids.feature}/rename`, { title: 'Map title' })
    await eventually(
      () => github.callsTo('PATCH', /\/issues\/\d+$/).filter((c) => c.status === 500).length,
      (n) => n > 0,
    )
    // GitHub's times have whole seconds: its change is later once the clock is past the map's second.
    const renamedAt = Date.parse(featureOf(await bundle(owner.client, ids.project), ids.feature).lastModified)
    await eventually(
      () => Math.floor(Date.now() / 1000),
      (second) => second > Math.floor(renamedAt / 1000),
      2000,
    )
    github.edit(repo, number, { title: 'GitHub title' })
    const map = await eventually(
      () => bundle(owner.client, ids.project),
      (b) => featureOf(b, ids.feature).title === 'GitHub title',
    )
    expect(featureOf(map, ids.feature).title).toBe('GitHub title')
    const lines = await summaries(owner.client, ids.project)
    expect(lines.map((l) => l.summary)).toContainEqual(
      "Renamed feature 'Map title' to 'GitHub title' (title changed on both sides, GitHub's change was later and wins)",
    )
  })
})
