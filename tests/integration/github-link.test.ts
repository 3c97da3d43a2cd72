import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addMember, bundle, makeBoard, uuid } from '../support/board'
import { signUp } from '../support/client'
import { FakeGithub } from '../support/fake-github'
import { afterPolls, eventually, featureOf, link, rows } from '../support/github'
import { startServer, type RunningServer } from '../support/server'

/**
 * Linking a project to a repository (CONTRACT §13) and who may do what, against the fake GitHub.
 * Hosted mode with a running trial, so a workspace's plan can end.
 */
const REPO = 'acme/shop'
let server: RunningServer
let github: FakeGithub

beforeAll(async () => {
  github = await new FakeGithub().start()
  github.addRepo(REPO)
  github.addRepo('acme/other')
  github.addToken('tok-write', [REPO, 'acme/other'])
  github.addToken('tok-read', [REPO], false)
  server = await startServer({
    APP_MODE: 'hosted',
    TRIAL_DAYS: '14',
    GITHUB_API_URL: github.url,
    GITHUB_POLL_SECONDS: '1',
  })
})
afterAll(async () => {
  await server?.stop()
  await github?.stop()
})

/** Calls made for users (the worker's polls, which carry `since`, aside). */
const userCalls = () => github.calls.filter((c) => !c.query.since).length

const activity = async (client: Awaited<ReturnType<typeof signUp>>['client'], projectId: string) =>
  (await client.get(`/v1/projects/${projectId}/activity`)).json.items as {
    summary: string
    by: { via?: string }
  }[]

describe('linking', () => {
  it('checks the token at once, keeps it encrypted and never shows it; the bundle shows the link, the public link does not', async () => {
    const owner = await signUp(server.url, { name: 'Ana' })
    const ids = await makeBoard(owner.client)
    const { github: linked, webhookSecret } = await link(owner.client, ids.project, 'ACME/shop', 'tok-write')
    expect(linked).toEqual({
      repository: REPO,
      linkedAt: expect.any(String),
      linkedBy: { memberId: expect.any(String), name: 'Ana' },
      status: 'ok',
      lastSyncAt: null,
      error: null,
    })
    expect(webhookSecret).toMatch(/^[0-9a-f]{64}$/)
    expect(github.callsTo('GET', /^\/repos\/ACME\/shop$/)).toHaveLength(1)

    const read = await owner.client.get(`/v1/projects/${ids.project}/github`)
    expect(read.json).toEqual({ github: { ...linked, lastSyncAt: read.json.github.lastSyncAt } })
    expect(read.text).not.toContain('tok-write')
    expect(read.text).not.toContain(webhookSecret)
    const [stored] = rows(
      server.dbPath,
      'select token_cipher from github_links where project_id = ?',
      ids.project,
    )
    expect(stored.token_cipher).toMatch(/^v1\./)
    expect(stored.token_cipher).not.toContain('tok-write')

    const map = await bundle(owner.client, ids.project)
    expect(map.project.github).toMatchObject({ repository: REPO, status: 'ok' })
    expect(featureOf(map, ids.feature).github).toBeNull()
    const shared = await owner.client.get(`/v1/link/${map.project.externalLink}`, { Cookie: '' })
    expect(shared.json.project.github).toBeUndefined()
    expect(shared.json.features[0]).not.toHaveProperty('github')
    const exported = await owner.client.get(`/v1/projects/${ids.project}/export`)
    expect(exported.text).not.toContain('tok-write')
    expect(exported.json.project.github).toBeUndefined()
    expect(exported.json.features[0].github).toBeNull()
    expect((await activity(owner.client, ids.project))[0].summary).toBe(
      `Linked project 'Map' to GitHub repository '${REPO}'`,
    )
  })

  it('relinks (the webhook secret is kept) and unlinks (features keep their issues)', async () => {
    const owner = await signUp(server.url)
    const ids = await makeBoard(owner.client)
    const first = await link(owner.client, ids.project, REPO, 'tok-write')
    expect((await owner.client.post(`/v1/features/${ids.feature}/github`)).status).toBe(200)
    const second = await link(owner.client, ids.project, 'acme/other', 'tok-write')
    expect(second.webhookSecret).toBe(first.webhookSecret)
    expect(second.github.repository).toBe('acme/other')
    expect((await activity(owner.client, ids.project))[0].summary).toBe(
      `Relinked project 'Map' to GitHub repository 'acme/other'`,
    )
    // The feature's issue is in the first repository: its edits no longer go there.
    const patches = github.callsTo('PATCH', /^\/repos\/acme\/shop\//).length
    await owner.client.post(`/v1/features/${ids.feature}/rename`, { title: 'Renamed after the relink' })
    await afterPolls(github, 'acme/other')
    expect(github.callsTo('PATCH', /^\/repos\/acme\/shop\//)).toHaveLength(patches)
    expect(rows(server.dbPath, 'select * from github_outbox where project_id = ?', ids.project)).toEqual([])

    const gone = await owner.client.delete(`/v1/projects/${ids.project}/github`)
    expect(gone.json).toEqual({ github: null })
    expect((await owner.client.get(`/v1/projects/${ids.project}/github`)).json).toEqual({ github: null })
    expect(rows(server.dbPath, 'select * from github_links where project_id = ?', ids.project)).toEqual([])
    const map = await bundle(owner.client, ids.project)
    expect(map.project.github).toBeNull()
    expect(featureOf(map, ids.feature).github).toMatchObject({ number: 1, state: 'open' })
    expect((await owner.client.delete(`/v1/projects/${ids.project}/github`)).json.error).toBe(
      'github_not_linked',
    )
  })

  it('keeps the pushes waiting at an unlink and sends them when the same repository is linked again (issue 43)', async () => {
    const repo = 'acme/kept'
    github.addRepo(repo)
    github.addToken('tok-kept', [repo])
    const owner = await signUp(server.url)
    const ids = await makeBoard(owner.client)
    const dialog = () => owner.client.get(`/${owner.workspaceName}/projects/${ids.project}/github`)
    await link(owner.client, ids.project, repo, 'tok-kept')
    const { number } = (await owner.client.post(`/v1/features/${ids.feature}/github`)).json.github
    // GitHub is away for the next push: it waits in the outbox.
    github.failNext(new RegExp(`^/repos/${repo}/issues/${number}$`), 500)
    await owner.client.post(`/v1/features/${ids.feature}/rename`, { title: 'Renamed before the unlink' })
    const waiting = () =>
      rows(server.dbPath, 'select attempt from github_outbox where project_id = ?', ids.project)
    await eventually(waiting, (r) => r.length === 1 && r[0].attempt > 0)
    expect((await dialog()).json.pendingPushes).toBe(1)

    expect((await owner.client.delete(`/v1/projects/${ids.project}/github`)).status).toBe(200)
    expect(waiting()).toHaveLength(1)
    // A change while unlinked waits too: the feature keeps its issue.
    await owner.client.post(`/v1/features/${ids.feature}/description`, {
      description: 'Written while unlinked',
    })
    expect(github.issue(repo, number)).toMatchObject({ title: 'Feature' })

    await link(owner.client, ids.project, repo, 'tok-kept')
    const issue = await eventually(
      () => github.issue(repo, number)!,
      (i) => i.title === 'Renamed before the unlink' && !!i.body?.startsWith('Written while unlinked'),
      15_000,
    )
    expect(issue.state).toBe('open')
    await eventually(waiting, (r) => r.length === 0)
    expect((await dialog()).json.pendingPushes).toBe(0)
  })

  it('a link to another repository drops the pushes waiting for the former one, and the dialog says how many', async () => {
    const owner = await signUp(server.url)
    const ids = await makeBoard(owner.client)
    await link(owner.client, ids.project, REPO, 'tok-write')
    const { number } = (await owner.client.post(`/v1/features/${ids.feature}/github`)).json.github
    github.failNext(new RegExp(`^/repos/${REPO}/issues/${number}$`), 500)
    await owner.client.post(`/v1/features/${ids.feature}/rename`, { title: 'Waiting for acme/shop' })
    const waiting = () =>
      rows(server.dbPath, 'select attempt from github_outbox where project_id = ?', ids.project)
    await eventually(waiting, (r) => r.length === 1 && r[0].attempt > 0)
    const relinked = await owner.client.post(`/${owner.workspaceName}/projects/${ids.project}/github`, {
      intent: 'link',
      repository: 'acme/other',
      token: 'tok-write',
    })
    expect(relinked.json).toMatchObject({
      ok: true,
      message: 'Linked to acme/other. Changes to 1 feature waiting for another repository were dropped.',
    })
    expect(waiting()).toEqual([])
  })

  it("the release's Send to GitHub says how many issues it made", async () => {
    const owner = await signUp(server.url)
    const ids = await makeBoard(owner.client)
    await link(owner.client, ids.project, REPO, 'tok-write')
    const send = () =>
      owner.client.post(`/${owner.workspaceName}/projects/${ids.project}/github`, {
        intent: 'sendRelease',
        milestoneId: ids.milestone,
      })
    expect((await send()).json).toEqual({ ok: true, message: '1 GitHub issue made.' })
    expect((await send()).json).toEqual({
      ok: true,
      message: 'No GitHub issue made: every open feature of this release has one already.',
    })
  })

  it('an undone import frees its issues: importing again brings them back', async () => {
    const repo = 'acme/reimport'
    github.addRepo(repo)
    github.addToken('tok-reimport', [repo])
    github.seedIssue(repo, { title: 'Gift cards' })
    github.seedIssue(repo, { title: 'Wish list' })
    const owner = await signUp(server.url)
    const ids = await makeBoard(owner.client)
    await link(owner.client, ids.project, repo, 'tok-reimport')
    const cell = { milestoneId: ids.milestone, subWorkflowId: ids.subworkflow }
    const importIssues = () => owner.client.post(`/v1/projects/${ids.project}/github/import`, cell)
    expect((await importIssues()).json).toEqual({ imported: 2 })
    expect((await owner.client.post(`/v1/projects/${ids.project}/undo`)).status).toBe(200)
    const titles = async () =>
      (await bundle(owner.client, ids.project)).features.map((f: { title: string }) => f.title)
    expect(await titles()).not.toContain('Gift cards')
    const again = await importIssues()
    expect(again.json, again.text).toEqual({ imported: 2 })
    expect(await titles()).toEqual(expect.arrayContaining(['Gift cards', 'Wish list']))
    expect((await importIssues()).json).toEqual({ imported: 0 })
  })

  it('a deleted project takes its link, waiting pushes and sync log with it', async () => {
    const owner = await signUp(server.url)
    const ids = await makeBoard(owner.client)
    await link(owner.client, ids.project, REPO, 'tok-write')
    const { number } = (await owner.client.post(`/v1/features/${ids.feature}/github`)).json.github
    github.failNext(new RegExp(`^/repos/${REPO}/issues/${number}$`), 500)
    await owner.client.post(`/v1/features/${ids.feature}/rename`, { title: 'Waiting' })
    const waiting = () =>
      rows(server.dbPath, 'select attempt from github_outbox where project_id = ?', ids.project)
    await eventually(waiting, (r) => r.length === 1 && r[0].attempt > 0)
    expect((await owner.client.delete(`/v1/projects/${ids.project}`)).status).toBe(200)
    for (const table of ['github_links', 'github_outbox', 'github_log'])
      expect(rows(server.dbPath, `select * from ${table} where project_id = ?`, ids.project), table).toEqual(
        [],
      )
  })

  it('refuses what GitHub refuses, with the contract codes, and links nothing', async () => {
    const owner = await signUp(server.url)
    const ids = await makeBoard(owner.client)
    const put = (repository: string, token: string) =>
      owner.client.put(`/v1/projects/${ids.project}/github`, { repository, token })
    expect(await put('not a repository', 'tok-write')).toMatchObject({
      status: 400,
      json: { error: 'github_repository_invalid' },
    })
    expect(await put('acme/unknown', 'tok-write')).toMatchObject({
      status: 400,
      json: { error: 'github_repository_invalid' },
    })
    expect(await put(REPO, 'tok-wrong')).toMatchObject({
      status: 400,
      json: { error: 'github_token_invalid' },
    })
    expect(await put(REPO, '')).toMatchObject({ status: 400, json: { error: 'github_token_invalid' } })
    expect(await put(REPO, 'tok-read')).toMatchObject({
      status: 400,
      json: { error: 'github_permission_missing' },
    })
    github.failNext(/^\/repos\/acme\/shop$/, 503)
    expect(await put(REPO, 'tok-write')).toMatchObject({ status: 502, json: { error: 'github_unreachable' } })
    github.dropNext(/^\/repos\/acme\/shop$/)
    expect(await put(REPO, 'tok-write')).toMatchObject({ status: 502, json: { error: 'github_unreachable' } })
    github.rateLimitNext(/^\/repos\/acme\/shop$/, { status: 429, retryAfter: 30 })
    const limited = await put(REPO, 'tok-write')
    expect(limited).toMatchObject({ status: 503, json: { error: 'github_rate_limited' } })
    expect(limited.headers.get('retry-after')).toBe('30')
    expect((await owner.client.get(`/v1/projects/${ids.project}/github`)).json).toEqual({ github: null })
    expect(await activity(owner.client, ids.project)).not.toContainEqual(
      expect.objectContaining({ summary: expect.stringContaining('GitHub') }),
    )
  })
})

describe('permissions', () => {
  it('VIEWERs read; EDITORs push, sync and import; OWNERs and ADMINs link; a refused caller changes nothing', async () => {
    const owner = await signUp(server.url)
    const ids = await makeBoard(owner.client)
    const people = {} as Record<'VIEWER' | 'EDITOR' | 'ADMIN', Awaited<ReturnType<typeof signUp>>>
    for (const level of ['VIEWER', 'EDITOR', 'ADMIN'] as const) {
      people[level] = await signUp(server.url)
      addMember(server.dbPath, owner.workspaceId, people[level].account.id, level)
      people[level].client.workspaceId = owner.workspaceId
    }
    const { viewer, editor, admin } = {
      viewer: people.VIEWER.client,
      editor: people.EDITOR.client,
      admin: people.ADMIN.client,
    }
    const linkBody = { repository: REPO, token: 'tok-write' }
    const checks = userCalls()
    for (const client of [viewer, editor])
      expect(await client.put(`/v1/projects/${ids.project}/github`, linkBody)).toMatchObject({
        status: 403,
        json: { error: 'level_too_low' },
      })
    expect(userCalls()).toBe(checks)
    expect((await viewer.get(`/v1/projects/${ids.project}/github`)).json).toEqual({ github: null })
    await link(admin, ids.project, REPO, 'tok-write')

    const calls = userCalls()
    const cell = { milestoneId: ids.milestone, subWorkflowId: ids.subworkflow }
    expect((await viewer.post(`/v1/features/${ids.feature}/github`)).status).toBe(403)
    expect((await viewer.post(`/v1/milestones/${ids.milestone}/github`)).status).toBe(403)
    expect((await viewer.post(`/v1/projects/${ids.project}/github/sync`)).status).toBe(403)
    expect((await viewer.post(`/v1/projects/${ids.project}/github/import`, cell)).status).toBe(403)
    expect((await editor.delete(`/v1/projects/${ids.project}/github`)).status).toBe(403)
    expect(userCalls()).toBe(calls)
    expect((await viewer.get(`/v1/projects/${ids.project}/github`)).json.github.repository).toBe(REPO)
    expect((await viewer.get(`/v1/projects/${ids.project}/github/log`)).status).toBe(200)

    expect((await editor.post(`/v1/features/${ids.feature}/github`)).json.github).toMatchObject({
      number: expect.any(Number),
      state: 'open',
    })
    expect((await editor.post(`/v1/projects/${ids.project}/github/sync`)).json).toEqual({
      pulled: 0,
      lastSyncAt: expect.any(String),
    })
    expect((await editor.post(`/v1/projects/${ids.project}/github/import`, cell)).json).toEqual({
      imported: expect.any(Number),
    })
    expect((await admin.delete(`/v1/projects/${ids.project}/github`)).status).toBe(200)
  })

  it("another workspace's ids are 404 and an inactive plan refuses every write", async () => {
    const owner = await signUp(server.url)
    const ids = await makeBoard(owner.client)
    await link(owner.client, ids.project, REPO, 'tok-write')
    const stranger = await signUp(server.url)
    const mine = await makeBoard(stranger.client)
    for (const res of [
      await stranger.client.get(`/v1/projects/${ids.project}/github`),
      await stranger.client.put(`/v1/projects/${ids.project}/github`, {
        repository: REPO,
        token: 'tok-write',
      }),
      await stranger.client.delete(`/v1/projects/${ids.project}/github`),
      await stranger.client.get(`/v1/projects/${ids.project}/github/log`),
      await stranger.client.post(`/v1/projects/${ids.project}/github/sync`),
      await stranger.client.post(`/v1/features/${ids.feature}/github`),
      await stranger.client.post(`/v1/milestones/${ids.milestone}/github`),
      await stranger.client.post(`/v1/projects/${mine.project}/github/import`, {
        milestoneId: ids.milestone,
        subWorkflowId: ids.subworkflow,
      }),
    ])
      expect(res.status, res.text).toBe(404)

    const db = new Database(server.dbPath)
    db.prepare('update subscriptions set expiration_date = ? where workspace_id = ?').run(
      new Date(Date.now() - 1000).toISOString(),
      owner.workspaceId,
    )
    db.close()
    const before = await bundle(owner.client, ids.project)
    const refused = [
      await owner.client.put(`/v1/projects/${ids.project}/github`, {
        repository: 'acme/other',
        token: 'tok-write',
      }),
      await owner.client.delete(`/v1/projects/${ids.project}/github`),
      await owner.client.post(`/v1/projects/${ids.project}/github/sync`),
      await owner.client.post(`/v1/features/${ids.feature}/github`),
      await owner.client.post(`/v1/milestones/${ids.milestone}/github`),
      await owner.client.post(`/v1/projects/${ids.project}/github/import`, {
        milestoneId: ids.milestone,
        subWorkflowId: ids.subworkflow,
      }),
    ]
    for (const res of refused) expect(res.json.error, res.text).toBe('plan_inactive')
    const after = await bundle(owner.client, ids.project)
    expect(after.version).toBe(before.version)
    expect(after.project.github.repository).toBe(REPO)
    expect(featureOf(after, ids.feature).github).toBeNull()
    expect((await owner.client.get(`/v1/projects/${ids.project}/github/log`)).status).toBe(200)
  })

  it('pulls wait while the plan is inactive, and come in once it is active again', async () => {
    const repo = 'acme/paused'
    github.addRepo(repo)
    github.addRepo('acme/witness')
    github.addToken('tok-paused', [repo, 'acme/witness'])
    const owner = await signUp(server.url)
    const ids = await makeBoard(owner.client)
    await link(owner.client, ids.project, repo, 'tok-paused')
    const { number } = (await owner.client.post(`/v1/features/${ids.feature}/github`)).json.github
    const witness = await signUp(server.url)
    await link(witness.client, (await makeBoard(witness.client)).project, 'acme/witness', 'tok-paused')

    const setExpiry = (at: number) => {
      const db = new Database(server.dbPath)
      db.prepare('update subscriptions set expiration_date = ? where workspace_id = ?').run(
        new Date(at).toISOString(),
        owner.workspaceId,
      )
      db.close()
    }
    setExpiry(Date.now() - 1000)
    github.edit(repo, number, { state: 'closed' })
    const calls = github.calls.filter((c) => c.path.startsWith(`/repos/${repo}/`)).length
    // The worker polls the other workspace's repository meanwhile, and not this one.
    await afterPolls(github, 'acme/witness')
    expect(github.calls.filter((c) => c.path.startsWith(`/repos/${repo}/`))).toHaveLength(calls)
    expect(featureOf(await bundle(owner.client, ids.project), ids.feature).status).toBe('OPEN')

    setExpiry(Date.now() + 86_400_000)
    const map = await eventually(
      () => bundle(owner.client, ids.project),
      (b) => featureOf(b, ids.feature).status === 'CLOSED',
    )
    expect(featureOf(map, ids.feature).github).toMatchObject({ number, state: 'closed' })
  })
})

it('answers bad path ids with 400', async () => {
  const owner = await signUp(server.url)
  expect((await owner.client.get('/v1/projects/nope/github')).status).toBe(400)
  expect((await owner.client.post(`/v1/features/${uuid()}/github`)).status).toBe(404)
})
