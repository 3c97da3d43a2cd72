import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addMember, bundle, makeBoard, uuid } from '../support/board'
import { signUp } from '../support/client'
import { DEVELOPER, FakeGitlab, GUEST } from '../support/fake-gitlab'
import { eventually, featureOf, rows } from '../support/github'
import { startMailbox } from '../support/mailbox'
import { startServer, type RunningServer } from '../support/server'

/**
 * GitLab through the one connector (CONTRACT §14), against the fake GitLab under a path prefix
 * (a self-managed GitLab): link, push, pull by polling and by Issue Hook, import, failures.
 */
const PATH = 'acme/web/shop'
let server: RunningServer
let gitlab: FakeGitlab
let mailbox: Awaited<ReturnType<typeof startMailbox>>

beforeAll(async () => {
  gitlab = await new FakeGitlab().start({ prefix: '/gitlab' })
  gitlab.addProject(PATH)
  gitlab.addProject('acme/other')
  const soon = new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10)
  gitlab.addToken('glpat-good', {
    projects: { [PATH]: DEVELOPER, 'acme/other': DEVELOPER },
    expiresAt: '2099-12-31',
  })
  gitlab.addToken('glpat-soon', { projects: { [PATH]: DEVELOPER }, expiresAt: soon })
  gitlab.addToken('glpat-guest', { projects: { [PATH]: GUEST } })
  gitlab.addProject('acme/big')
  gitlab.addToken('glpat-big', { projects: { 'acme/big': DEVELOPER } })
  for (let i = 1; i <= 1000; i++) gitlab.seedIssue('acme/big', { title: `Issue ${i}` })
  mailbox = await startMailbox()
  server = await startServer({
    SMTP_URL: mailbox.url,
    TRACKER_ALLOW_HTTP: 'true',
    TRACKER_POLL_SECONDS: '1',
  })
})
afterAll(async () => {
  await server?.stop()
  await gitlab?.stop()
  await mailbox?.close()
})

type Owner = Awaited<ReturnType<typeof signUp>>
const linkBody = (token = 'glpat-good', project = PATH) => ({
  provider: 'gitlab',
  url: gitlab.url,
  project,
  token,
})

async function linkedBoard() {
  const owner = await signUp(server.url, { name: 'Bea' })
  const ids = await makeBoard(owner.client)
  const res = await owner.client.put(`/v1/projects/${ids.project}/tracker`, linkBody())
  expect(res.status, res.text).toBe(200)
  return { owner, ids, webhookSecret: res.json.webhookSecret as string }
}

const activity = async (owner: Owner, projectId: string) =>
  (await owner.client.get(`/v1/projects/${projectId}/activity`)).json.items as {
    summary: string
    by: { via?: string }
  }[]

describe('linking GitLab', () => {
  it('checks the token at once, keeps it sealed, shows the link to members but not the public link', async () => {
    const owner = await signUp(server.url, { name: 'Ana' })
    const ids = await makeBoard(owner.client)
    const res = await owner.client.put(`/v1/projects/${ids.project}/tracker`, linkBody())
    expect(res.status, res.text).toBe(200)
    expect(res.json.tracker).toEqual({
      provider: 'gitlab',
      url: gitlab.url,
      project: PATH,
      linkedAt: expect.any(String),
      linkedBy: { memberId: expect.any(String), name: 'Ana' },
      status: 'ok',
      lastSyncAt: null,
      error: null,
      tokenExpiresAt: '2099-12-31',
    })
    expect(res.json.webhookSecret).toMatch(/^[0-9a-f]{64}$/)
    const read = await owner.client.get(`/v1/projects/${ids.project}/tracker`)
    expect(read.json.tracker).toMatchObject({ provider: 'gitlab', project: PATH })
    expect(read.text).not.toContain('glpat-good')
    expect(read.text).not.toContain(res.json.webhookSecret)
    const [stored] = rows(
      server.dbPath,
      'select token_cipher, provider from github_links where project_id = ?',
      ids.project,
    )
    expect(stored).toMatchObject({ provider: 'gitlab' })
    expect(stored.token_cipher).not.toContain('glpat-good')
    // GitHub's §13 route shows no GitHub link for it.
    expect((await owner.client.get(`/v1/projects/${ids.project}/github`)).json).toEqual({ github: null })
    const map = await bundle(owner.client, ids.project)
    expect(map.project.tracker).toMatchObject({ provider: 'gitlab', status: 'ok' })
    expect(featureOf(map, ids.feature).issue).toBeNull()
    const shared = await owner.client.get(`/v1/link/${map.project.externalLink}`, { Cookie: '' })
    expect(shared.json.project.tracker).toBeUndefined()
    expect(shared.json.features[0]).not.toHaveProperty('issue')
    expect((await activity(owner, ids.project))[0].summary).toBe(
      `Linked project 'Map' to GitLab tracker project '${PATH}'`,
    )
  })

  it('refuses a wrong token, an unknown project, too low an access, bad fields and http:// when not allowed', async () => {
    const owner = await signUp(server.url)
    const ids = await makeBoard(owner.client)
    const put = (body: unknown) => owner.client.put(`/v1/projects/${ids.project}/tracker`, body)
    expect((await put(linkBody('nope'))).json.error).toBe('tracker_token_invalid')
    const missing = await put(linkBody('glpat-good', 'acme/nothing'))
    expect([missing.status, missing.json.error]).toEqual([400, 'tracker_project_invalid'])
    expect((await put(linkBody('glpat-guest'))).json.error).toBe('tracker_permission_missing')
    const bad = await put({ provider: 'gitlab', url: gitlab.url, project: 'no-slash', token: 'x' })
    expect([bad.status, bad.json.error]).toEqual([400, 'validation_failed'])
    expect(bad.json.message).toContain('project')
    expect((await put({ provider: 'gitlab', project: PATH, token: 'x' })).json.error).toBe(
      'validation_failed',
    )
    expect((await owner.client.get(`/v1/projects/${ids.project}/tracker`)).json).toEqual({ tracker: null })
  })

  it('says token_expiring when the token expires within 14 days', async () => {
    const owner = await signUp(server.url)
    const ids = await makeBoard(owner.client)
    const since = mailbox.mails.length
    const res = await owner.client.put(`/v1/projects/${ids.project}/tracker`, linkBody('glpat-soon'))
    expect(res.json.tracker.status).toBe('token_expiring')
    const mail = await mailbox.waitFor(owner.email, since)
    expect(mail.subject).toBe(`The GitLab token expires on ${res.json.tracker.tokenExpiresAt.slice(0, 10)}`)
    const lines = (await activity(owner, ids.project)).map((a) => a.summary)
    expect(lines).toContain(`The GitLab token expires on ${res.json.tracker.tokenExpiresAt.slice(0, 10)}.`)
  })

  it('tells owners once when a token linked with months left comes within 14 days of its expiry', async () => {
    const owner = await signUp(server.url)
    const ids = await makeBoard(owner.client)
    const res = await owner.client.put(`/v1/projects/${ids.project}/tracker`, linkBody())
    expect(res.json.tracker.status).toBe('ok')
    const since = mailbox.mails.length
    // Time passes: the token now has ten days left (as if linked months ago).
    const soon = new Date(Date.now() + 10 * 86_400_000).toISOString()
    const db = new Database(server.dbPath)
    db.prepare('update github_links set token_expires_at = ? where project_id = ?').run(soon, ids.project)
    db.close()
    const mail = await mailbox.waitFor(owner.email, since)
    expect(mail.subject).toBe(`The GitLab token expires on ${soon.slice(0, 10)}`)
    const told = `The GitLab token expires on ${soon.slice(0, 10)}.`
    expect((await owner.client.get(`/v1/projects/${ids.project}/tracker`)).json.tracker.status).toBe(
      'token_expiring',
    )
    // The worker serves the link again (a later poll): no second mail, one activity line.
    const after = new Date().toISOString()
    await eventually(
      async () => (await owner.client.get(`/v1/projects/${ids.project}/tracker`)).json.tracker.lastSyncAt,
      (at) => typeof at === 'string' && at > after,
    )
    expect(mailbox.mails.slice(since).filter((m) => m.subject.startsWith('The GitLab token'))).toHaveLength(1)
    expect((await activity(owner, ids.project)).filter((a) => a.summary === told)).toHaveLength(1)
  })

  it('lets VIEWERs read, EDITORs push but not link; unlinking keeps the features’ issues', async () => {
    const { owner, ids } = await linkedBoard()
    const editor = await signUp(server.url)
    addMember(server.dbPath, owner.workspaceId, editor.account.id, 'EDITOR')
    editor.client.workspaceId = owner.workspaceId
    expect((await editor.client.get(`/v1/projects/${ids.project}/tracker`)).status).toBe(200)
    expect((await editor.client.put(`/v1/projects/${ids.project}/tracker`, linkBody())).status).toBe(403)
    expect((await editor.client.delete(`/v1/projects/${ids.project}/tracker`)).status).toBe(403)
    expect((await editor.client.post(`/v1/features/${ids.feature}/issue`)).status).toBe(200)
    expect((await owner.client.delete(`/v1/projects/${ids.project}/tracker`)).json).toEqual({ tracker: null })
    const map = await bundle(owner.client, ids.project)
    expect(map.project.tracker).toBeNull()
    expect(featureOf(map, ids.feature).issue).toMatchObject({
      provider: 'gitlab',
      key: expect.stringMatching(/^#\d+$/),
    })
    expect((await owner.client.post(`/v1/features/${ids.feature}/issue`)).json.error).toBe(
      'tracker_not_linked',
    )
  })
})

describe('Storymap → GitLab', () => {
  it('creates the issue with footer, labels in the tag colour and the release as milestone; later changes follow', async () => {
    const { owner, ids } = await linkedBoard()
    const tagId = uuid()
    await owner.client.post(`/v1/tags/${tagId}`, { projectId: ids.project, name: 'Payments', color: 'RED' })
    await owner.client.post(`/v1/features/${ids.feature}/tags`, { tagIds: [tagId] })
    await owner.client.post(`/v1/features/${ids.feature}/description`, { description: 'Cards first.' })
    const res = await owner.client.post(`/v1/features/${ids.feature}/issue`)
    expect(res.status, res.text).toBe(200)
    const key = res.json.issue.key as string
    expect(res.json.issue).toEqual({
      provider: 'gitlab',
      key: expect.stringMatching(/^#\d+$/),
      url: expect.stringContaining(`${gitlab.url}/${PATH}/-/issues/`),
      state: 'open',
      status: null,
    })
    const iid = Number(key.slice(1))
    const issue = gitlab.issue(PATH, iid)!
    expect(issue.title).toBe('Feature')
    expect(issue.description).toMatch(
      /^Cards first\.\n\n---\nStory map: http.*\/f\/.* · Release · Goal › Activity$/,
    )
    expect(issue.labels).toEqual(['Payments'])
    expect(issue.milestone).toMatchObject({ title: 'Release' })
    expect(gitlab.labels(PATH).find((l) => l.name === 'Payments')?.color).toMatch(/^#[0-9a-f]{6}$/)
    expect((await owner.client.post(`/v1/features/${ids.feature}/issue`)).json.error).toBe('already_linked')

    await owner.client.post(`/v1/features/${ids.feature}/rename`, { title: 'Pay by card' })
    await owner.client.post(`/v1/features/${ids.feature}/close`)
    const pushed = await eventually(
      () => gitlab.issue(PATH, iid)!,
      (i) => i.state === 'closed' && i.title === 'Pay by card',
    )
    expect(pushed.description).toContain('Story map: ')
    const feature = await eventually(
      async () => featureOf(await bundle(owner.client, ids.project), ids.feature),
      (f) => f.issue?.state === 'closed',
    )
    expect(feature.status).toBe('CLOSED')
    const log = (await owner.client.get(`/v1/projects/${ids.project}/tracker/log`)).json.items
    expect(
      log.some((e: { action: string; status: string }) => e.action === 'update' && e.status === 'ok'),
    ).toBe(true)
  })

  it('sends a release: every OPEN feature without an issue, in board order', async () => {
    const { owner, ids } = await linkedBoard()
    const more = [uuid(), uuid()]
    for (const [i, id] of more.entries())
      await owner.client.post(`/v1/features/${id}`, {
        milestoneId: ids.milestone,
        subWorkflowId: ids.subworkflow,
        title: `More ${i}`,
      })
    await owner.client.post(`/v1/features/${more[1]}/close`)
    const res = await owner.client.post(`/v1/milestones/${ids.milestone}/issues`)
    expect(res.json).toEqual({ created: 2, failed: [] })
    const map = await bundle(owner.client, ids.project)
    expect(featureOf(map, ids.feature).issue.key).toMatch(/^#\d+$/)
    expect(featureOf(map, more[0]).issue.key).toMatch(/^#\d+$/)
    expect(featureOf(map, more[1]).issue).toBeNull()
  })
})

describe('GitLab → Storymap', () => {
  it('takes a change on GitLab by polling, as the linking member via GitLab, and it is undoable', async () => {
    const { owner, ids } = await linkedBoard()
    const iid = Number((await owner.client.post(`/v1/features/${ids.feature}/issue`)).json.issue.key.slice(1))
    await gitlab.edit(PATH, iid, { title: 'Renamed on GitLab', state: 'closed', description: 'From GitLab' })
    const feature = await eventually(
      async () => featureOf(await bundle(owner.client, ids.project), ids.feature),
      (f) => f.title === 'Renamed on GitLab',
    )
    expect(feature).toMatchObject({
      status: 'CLOSED',
      description: 'From GitLab',
      issue: { state: 'closed' },
    })
    const line = (await activity(owner, ids.project)).find((a) => a.summary.startsWith('Renamed feature'))!
    expect(line.by.via).toBe('GitLab')
    const undone = await owner.client.post(`/v1/projects/${ids.project}/undo`)
    expect(undone.json.summary).toMatch(/^Undid: Renamed feature 'Feature' to 'Renamed on GitLab'/)
    await eventually(
      () => gitlab.issue(PATH, iid)!,
      (i) => i.title === 'Feature' && i.state === 'opened',
    )
  })

  it('takes an Issue Hook with the right X-Gitlab-Token at once and refuses a wrong one', async () => {
    const { owner, ids, webhookSecret } = await linkedBoard()
    const iid = Number((await owner.client.post(`/v1/features/${ids.feature}/issue`)).json.issue.key.slice(1))
    const hook = (token: string | null) =>
      fetch(`${server.url}/v1/tracker/webhook/${ids.project}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...(token ? { 'X-Gitlab-Token': token } : {}) },
        body: JSON.stringify({
          object_kind: 'issue',
          project: { path_with_namespace: PATH },
          object_attributes: { iid, title: 'x', state: 'opened', action: 'update' },
        }),
      })
    expect((await hook(null)).status).toBe(401)
    expect((await hook('wrong')).status).toBe(401)
    gitlab.addHook(PATH, `${server.url}/v1/tracker/webhook/${ids.project}`, webhookSecret)
    // The fake awaits the hook's delivery, and the server answers it once the change is applied.
    await gitlab.edit(PATH, iid, { title: 'Hooked' })
    expect(featureOf(await bundle(owner.client, ids.project), ids.feature).title).toBe('Hooked')
  })

  it('Sync now re-reads every linked issue: a deleted one is missing; import adds the rest in one change', async () => {
    const { owner, ids } = await linkedBoard()
    const iid = Number((await owner.client.post(`/v1/features/${ids.feature}/issue`)).json.issue.key.slice(1))
    gitlab.remove(PATH, iid)
    const synced = await owner.client.post(`/v1/projects/${ids.project}/tracker/sync`)
    expect(synced.status, synced.text).toBe(200)
    expect(synced.json).toEqual({ pulled: expect.any(Number), lastSyncAt: expect.any(String) })
    expect(featureOf(await bundle(owner.client, ids.project), ids.feature).issue.state).toBe('missing')

    const open = gitlab.issues(PATH).filter((i) => i.state === 'opened').length
    const imported = await owner.client.post(`/v1/projects/${ids.project}/tracker/import`, {
      milestoneId: ids.milestone,
      subWorkflowId: ids.subworkflow,
    })
    expect(imported.json).toEqual({ imported: open })
    const again = await owner.client.post(`/v1/projects/${ids.project}/tracker/import`, {
      milestoneId: ids.milestone,
      subWorkflowId: ids.subworkflow,
    })
    expect(again.json).toEqual({ imported: 0 })
  })

  it('a rate limit is 503 tracker_rate_limited with Retry-After, and no call goes to GitLab until then', async () => {
    const { owner, ids } = await linkedBoard()
    gitlab.rateLimitNext(/\/issues$/, { retryAfter: 30 }, { method: 'POST' })
    const res = await owner.client.post(`/v1/features/${ids.feature}/issue`)
    expect([res.status, res.json.error]).toEqual([503, 'tracker_rate_limited'])
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0)
    gitlab.resetCalls()
    const again = await owner.client.post(`/v1/features/${ids.feature}/issue`)
    expect(again.json.error).toBe('tracker_rate_limited')
    expect(gitlab.calls.filter((c) => c.method === 'POST')).toHaveLength(0)
    expect((await owner.client.get(`/v1/projects/${ids.project}/tracker`)).json.tracker.status).toBe(
      'rate_limited',
    )
  })

  it('a poll of a 1,000-issue project with nothing changed is one request and writes nothing', async () => {
    const owner = await signUp(server.url)
    const ids = await makeBoard(owner.client)
    const res = await owner.client.put(
      `/v1/projects/${ids.project}/tracker`,
      linkBody('glpat-big', 'acme/big'),
    )
    expect(res.status, res.text).toBe(200)
    const big = () => gitlab.calls.filter((c) => /acme(%2F|\/)big/i.test(c.path))
    const polls = () =>
      big().filter((c) => c.route === 'GET /api/v4/projects/:id/issues' && c.query.updated_after)
    const state = () => [
      rows(server.dbPath, 'select * from github_links where project_id = ?', ids.project),
      rows(server.dbPath, 'select count(*) as n from project_changes where project_id = ?', ids.project),
    ]
    await eventually(polls, (p) => p.length >= 1)
    const before = state()
    const seen = polls().length
    gitlab.resetCalls()
    await eventually(polls, (p) => p.length >= 2, 8000)
    // Every call to the project in two polls was one poll each: one request per poll.
    expect(big().length).toBe(polls().length)
    expect(seen).toBeGreaterThan(0)
    expect(state()).toEqual(before)
  })

  it('a refused token stops the sync, e-mails owners and admins, and the board says so', async () => {
    const owner = await signUp(server.url)
    const ids = await makeBoard(owner.client)
    gitlab.addToken('glpat-revoked', { projects: { [PATH]: DEVELOPER } })
    expect(
      (await owner.client.put(`/v1/projects/${ids.project}/tracker`, linkBody('glpat-revoked'))).status,
    ).toBe(200)
    const since = mailbox.mails.length
    gitlab.revokeToken('glpat-revoked')
    const refused = await owner.client.post(`/v1/projects/${ids.project}/tracker/sync`)
    expect([refused.status, refused.json.error]).toEqual([409, 'tracker_token_invalid'])
    expect((await owner.client.get(`/v1/projects/${ids.project}/tracker`)).json.tracker.status).toBe(
      'token_invalid',
    )
    const mail = await mailbox.waitFor(owner.email, since)
    expect(mail.subject).toBe('GitLab sync stopped: the token was refused')
    expect(mail.text).toContain(`/projects/${ids.project}?tracker=1`)
    expect((await activity(owner, ids.project))[0]).toMatchObject({
      summary: 'GitLab sync stopped: the token was refused.',
      by: { via: 'GitLab' },
    })
    gitlab.resetCalls()
    expect((await owner.client.post(`/v1/features/${ids.feature}/issue`)).json.error).toBe(
      'tracker_token_invalid',
    )
    expect(gitlab.calls).toHaveLength(0)
  })
})
