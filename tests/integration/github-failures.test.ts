import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addMember, bundle, makeBoard } from '../support/board'
import { signUp, type Client } from '../support/client'
import { FakeGithub } from '../support/fake-github'
import { afterPolls, eventually, featureOf, link, rows } from '../support/github'
import { startMailbox } from '../support/mailbox'
import { startServer, type RunningServer } from '../support/server'

/**
 * Failures a user can act on (CONTRACT §13): a refused token stops the sync and tells the owners
 * and admins; a deleted issue marks its feature's link missing; GitHub down or rate-limited
 * waits and resumes by itself; a restart loses nothing; users get the contract's codes.
 */
let server: RunningServer
let github: FakeGithub
let mailbox: Awaited<ReturnType<typeof startMailbox>>
let repoCount = 0

beforeAll(async () => {
  github = await new FakeGithub().start()
  mailbox = await startMailbox()
  server = await startServer({ GITHUB_API_URL: github.url, GITHUB_POLL_SECONDS: '1', SMTP_URL: mailbox.url })
})
afterAll(async () => {
  await server?.stop()
  await github?.stop()
  await mailbox?.close()
})

/** A board linked to a repository and token of its own, with its feature pushed. */
async function pushedBoard() {
  repoCount++
  const repo = `acme/r${repoCount}`
  const token = `tok${repoCount}`
  github.addRepo(repo)
  github.addToken(token, [repo])
  const owner = await signUp(server.url, { name: 'Olga' })
  const ids = await makeBoard(owner.client)
  await link(owner.client, ids.project, repo, token)
  const res = await owner.client.post(`/v1/features/${ids.feature}/github`)
  expect(res.status, res.text).toBe(200)
  return { owner, ids, repo, token, number: res.json.github.number as number }
}

const status = async (client: Client, projectId: string) =>
  (await client.get(`/v1/projects/${projectId}/github`)).json.github

describe('a refused token', () => {
  it('stops the sync, e-mails every owner and admin once, and the board says so', async () => {
    const { owner, ids, repo, token, number } = await pushedBoard()
    const admin = await signUp(server.url)
    addMember(server.dbPath, owner.workspaceId, admin.account.id, 'ADMIN')
    const since = mailbox.mails.length
    github.revokeToken(token)
    const refused = await owner.client.post(`/v1/projects/${ids.project}/github/sync`)
    expect(refused).toMatchObject({ status: 409, json: { error: 'github_token_invalid' } })
    expect(await status(owner.client, ids.project)).toMatchObject({
      status: 'token_invalid',
      error: 'Bad credentials',
    })
    const mail = await mailbox.waitFor(owner.email, since)
    expect(mail.subject).toBe('GitHub sync stopped: the token was refused')
    expect(mail.text).toContain(`/projects/${ids.project}?github=1`)
    await mailbox.waitFor(admin.email, since)
    const activity = (await owner.client.get(`/v1/projects/${ids.project}/activity`)).json.items
    expect(activity[0]).toMatchObject({
      summary: 'GitHub sync stopped: the token was refused.',
      by: { via: 'GitHub' },
    })

    // Stopped: no more calls for this link, and users get the code without a call to GitHub.
    const calls = github.calls.filter((c) => c.path.startsWith(`/repos/${repo}`)).length
    await owner.client.post(`/v1/features/${ids.feature}/rename`, { title: 'Still here' })
    expect((await owner.client.post(`/v1/milestones/${ids.milestone}/github`)).json.error).toBe(
      'github_token_invalid',
    )
    // The worker goes on polling other links meanwhile, and calls nothing for this one.
    const witness = await pushedBoard()
    await afterPolls(github, witness.repo)
    expect(github.calls.filter((c) => c.path.startsWith(`/repos/${repo}`)).length).toBe(calls)
    expect(mailbox.mails.slice(since).filter((m) => m.subject === mail.subject)).toHaveLength(2)

    // Meanwhile someone closes the issue on GitHub. Relinking with a good token resumes: the
    // waiting rename goes out, and the close made while stopped comes in.
    github.edit(repo, number, { state: 'closed' })
    github.addToken('fresh', [repo])
    await link(owner.client, ids.project, repo, 'fresh')
    await eventually(
      () => github.issue(repo, number)!.title,
      (t) => t === 'Still here',
    )
    const map = await eventually(
      () => bundle(owner.client, ids.project),
      (b) => featureOf(b, ids.feature).status === 'CLOSED',
    )
    expect(featureOf(map, ids.feature)).toMatchObject({ title: 'Still here', github: { state: 'closed' } })
  })
})

describe('a missing issue', () => {
  it('marks the link missing when a push gets 410, and Sync now finds issues that went away', async () => {
    const first = await pushedBoard()
    github.remove(first.repo, first.number, 'deleted')
    await first.owner.client.post(`/v1/features/${first.ids.feature}/rename`, { title: 'Renamed' })
    const map = await eventually(
      () => bundle(first.owner.client, first.ids.project),
      (b) => featureOf(b, first.ids.feature).github.state === 'missing',
    )
    expect(featureOf(map, first.ids.feature)).toMatchObject({ title: 'Renamed', status: 'OPEN' })
    const log = (await first.owner.client.get(`/v1/projects/${first.ids.project}/github/log`)).json.items
    expect(log).toContainEqual(
      expect.objectContaining({
        direction: 'push',
        featureId: first.ids.feature,
        issue: first.number,
        status: 'failed',
      }),
    )

    const second = await pushedBoard()
    github.remove(second.repo, second.number, 'transferred')
    const synced = await second.owner.client.post(`/v1/projects/${second.ids.project}/github/sync`)
    expect(synced.json).toEqual({ pulled: 0, lastSyncAt: expect.any(String) })
    expect(
      featureOf(await bundle(second.owner.client, second.ids.project), second.ids.feature).github.state,
    ).toBe('missing')
    expect(
      (await second.owner.client.get(`/v1/projects/${second.ids.project}/activity`)).json.items[0].summary,
    ).toBe(`GitHub issue #${second.number} of feature 'Feature' is missing`)
  })
})

describe('GitHub down or rate-limited', () => {
  it('answers users 503 with Retry-After on a rate limit, then sends nothing until it ends, then resumes by itself', async () => {
    const { owner, ids, repo, number } = await pushedBoard()
    github.rateLimitNext(new RegExp(`^/repos/${repo}/issues/${number}$`), { status: 403, resetInSeconds: 3 })
    await owner.client.post(`/v1/features/${ids.feature}/rename`, { title: 'Later' })
    await eventually(
      () => status(owner.client, ids.project),
      (s) => s.status === 'rate_limited',
    )
    const limitedAt = Date.now()
    const refused = await owner.client.post(`/v1/projects/${ids.project}/github/sync`)
    expect(refused.status).toBe(503)
    expect(refused.json.error).toBe('github_rate_limited')
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
    const calls = github.calls.filter((c) => c.path.startsWith(`/repos/${repo}`)).length
    await eventually(
      () => github.issue(repo, number)!.title,
      (t) => t === 'Later',
      10_000,
    )
    // Nothing went to GitHub for this link until the limit's reset (whole seconds, at least 2 s on).
    const first = github.calls.filter((c) => c.path.startsWith(`/repos/${repo}`))[calls]
    expect(first.at - limitedAt).toBeGreaterThan(1000)
    await eventually(
      () => status(owner.client, ids.project),
      (s) => s.status === 'ok',
    )

    const fresh = (
      await owner.client.post(`/v1/features/${crypto.randomUUID()}`, {
        milestoneId: ids.milestone,
        subWorkflowId: ids.subworkflow,
        title: 'Fresh',
      })
    ).json
    github.rateLimitNext(
      new RegExp(`^/repos/${repo}/issues$`),
      { status: 429, retryAfter: 5 },
      { method: 'POST' },
    )
    const sent = await owner.client.post(`/v1/milestones/${ids.milestone}/github`)
    expect(sent.json).toEqual({ created: 0, failed: [{ featureId: fresh.id, error: 'github_rate_limited' }] })
    const again = await owner.client.post(`/v1/features/${fresh.id}/github`)
    expect(again.status).toBe(503)
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThanOrEqual(3)
    expect(featureOf(await bundle(owner.client, ids.project), fresh.id).github).toBeNull()
  })

  it('retries pushes after 5xx and cut connections, keeping their order; users get 502', async () => {
    const { owner, ids, repo, number } = await pushedBoard()
    github.failNext(new RegExp(`^/repos/${repo}/issues/${number}$`), 502)
    await owner.client.post(`/v1/features/${ids.feature}/rename`, { title: 'One' })
    await eventually(
      () => status(owner.client, ids.project),
      (s) => s.status === 'unreachable',
    )
    await owner.client.post(`/v1/features/${ids.feature}/rename`, { title: 'Two' })
    const issue = await eventually(
      () => github.issue(repo, number)!,
      (i) => i.title === 'Two',
      10_000,
    )
    expect(issue.title).toBe('Two')
    const log = (await owner.client.get(`/v1/projects/${ids.project}/github/log`)).json.items
    expect(log).toContainEqual(
      expect.objectContaining({ direction: 'push', status: 'retrying', error: 'Server Error' }),
    )

    await eventually(
      () => status(owner.client, ids.project),
      (s) => s.status === 'ok',
    )
    const fresh = (
      await owner.client.post(`/v1/features/${crypto.randomUUID()}`, {
        milestoneId: ids.milestone,
        subWorkflowId: ids.subworkflow,
        title: 'Fresh',
      })
    ).json
    const before = await bundle(owner.client, ids.project)
    github.dropNext(new RegExp(`^/repos/${repo}/issues$`), { method: 'GET', query: (q) => !q.since })
    const refused = await owner.client.post(`/v1/projects/${ids.project}/github/import`, {
      milestoneId: ids.milestone,
      subWorkflowId: ids.subworkflow,
    })
    expect(refused).toMatchObject({ status: 502, json: { error: 'github_unreachable' } })
    github.failNext(new RegExp(`^/repos/${repo}/issues$`), 500, { method: 'POST' })
    const created = await owner.client.post(`/v1/features/${fresh.id}/github`)
    expect(created).toMatchObject({ status: 502, json: { error: 'github_unreachable' } })
    const after = await bundle(owner.client, ids.project)
    expect(after.version).toBe(before.version)
    expect(featureOf(after, fresh.id).github).toBeNull()
  })

  it('loses nothing across a restart: waiting pushes go out from the new process', async () => {
    const { owner, ids, repo, number } = await pushedBoard()
    github.failNext(new RegExp(`^/repos/${repo}/issues/${number}$`), 500)
    await owner.client.post(`/v1/features/${ids.feature}/close`)
    await eventually(
      () => rows(server.dbPath, 'select * from github_outbox where feature_id = ?', ids.feature),
      (r) => r.length > 0 && r[0].attempt > 0,
    )
    expect(await server.stop()).toBe(0)
    server = await startServer(
      { GITHUB_API_URL: github.url, GITHUB_POLL_SECONDS: '1', SMTP_URL: mailbox.url },
      { dir: server.dir },
    )
    await eventually(
      () => github.issue(repo, number)!.state,
      (s) => s === 'closed',
      20_000,
    )
    // GitHub has the change before the server has its answer and deletes the waiting push.
    const waiting = await eventually(
      () => rows(server.dbPath, 'select * from github_outbox where feature_id = ?', ids.feature),
      (r) => r.length === 0,
    )
    expect(waiting).toEqual([])
  }, 40_000)
})
