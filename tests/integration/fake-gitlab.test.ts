import { Gitlab, GitbeakerRequestError, GitbeakerRetryError } from '@gitbeaker/rest'
import express from 'express'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  accessLevelOf,
  featureFromGitlabIssue,
  gitlabRateLimitUntil,
  readIssueHook,
  REPORTER,
} from '~/features/trackers/gitlab/gitlab-mapping'
import { oneRequestRequester } from '~/features/trackers/gitlab/gitlab-requester'
import { DEVELOPER, FakeGitlab, GUEST } from '../support/fake-gitlab'

/**
 * The fake GitLab speaks what `@gitbeaker/rest` expects, under a path prefix as a self-managed
 * GitLab: every call the connector makes (CONTRACT §14), paging, failures as the client raises
 * them, and Issue Hooks. The test names say what the client raises; the connector relies on it.
 */
const PATH = 'acme/web/shop'
let gitlab: FakeGitlab
let api: InstanceType<typeof Gitlab<false>>
let receiver: Server
let receiverUrl = ''
const received: { headers: Record<string, unknown>; body: any }[] = []
/** What a call raised (it must raise), as a Gitbeaker request error. */
const failure = (call: Promise<unknown>) =>
  call.then(
    () => {
      throw new Error('the call succeeded')
    },
    (error: unknown) => error as GitbeakerRequestError,
  )

beforeAll(async () => {
  gitlab = await new FakeGitlab().start({ prefix: '/gitlab' })
  gitlab.addProject(PATH)
  gitlab.addProject('acme/other')
  gitlab.addToken('glpat-good', {
    projects: { [PATH]: DEVELOPER, 'acme/other': DEVELOPER },
    expiresAt: '2099-12-31',
  })
  gitlab.addToken('glpat-guest', { projects: { [PATH]: GUEST }, via: 'group' })
  api = new Gitlab({ host: gitlab.url, token: 'glpat-good' })
  for (let i = 1; i <= 45; i++)
    gitlab.seedIssue(PATH, {
      title: `Issue ${i}`,
      labels: i % 3 === 0 ? ['bug'] : [],
      state: i % 5 === 0 ? 'closed' : 'opened',
    })
  const app = express()
  app.use(express.json())
  app.post('/hook', (req, res) => {
    received.push({ headers: req.headers, body: req.body })
    res.status(200).end()
  })
  await new Promise<void>((resolve) => {
    receiver = app.listen(0, '127.0.0.1', () => resolve())
  })
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`
  gitlab.addHook(PATH, receiverUrl, 'hook-secret')
})
afterAll(async () => {
  await gitlab?.stop()
  receiver?.close()
})

describe('the fake GitLab under /gitlab, through @gitbeaker/rest', () => {
  it('checks a link: the project by URL-encoded path with the access level, the token with its expiry', async () => {
    const project = await api.Projects.show(PATH)
    expect(project).toMatchObject({ path_with_namespace: PATH, web_url: `${gitlab.url}/${PATH}` })
    expect(accessLevelOf(project)).toBe(DEVELOPER)
    expect(gitlab.calls.at(-1)!.path).toBe(`/api/v4/projects/${encodeURIComponent(PATH)}`)
    expect(await api.Projects.show(project.id)).toMatchObject({ id: project.id })
    expect(await api.PersonalAccessTokens.show()).toMatchObject({
      active: true,
      revoked: false,
      scopes: ['api'],
      expires_at: '2099-12-31',
    })
    const guest = new Gitlab({ host: gitlab.url, token: 'glpat-guest' })
    const seen = await guest.Projects.show(PATH)
    expect(seen.permissions).toMatchObject({ project_access: null, group_access: { access_level: GUEST } })
    expect(accessLevelOf(seen)).toBeLessThan(REPORTER)
    expect((await guest.PersonalAccessTokens.show()).expires_at).toBeNull()
  })

  it('raises GitbeakerRequestError with cause.response.status 401 for an unknown, expired or revoked token', async () => {
    const stranger = new Gitlab({ host: gitlab.url, token: 'nope' })
    const refused = await failure(stranger.Projects.show(PATH))
    expect(refused).toBeInstanceOf(GitbeakerRequestError)
    expect(refused.cause?.response.status).toBe(401)
    expect(refused.message).toBe('401 Unauthorized')
    gitlab.addToken('glpat-old', { projects: { [PATH]: DEVELOPER }, expiresAt: '2020-01-01' })
    const expired = await failure(
      new Gitlab({ host: gitlab.url, oauthToken: 'glpat-old' }).Projects.show(PATH),
    )
    expect(expired.cause?.response.status).toBe(401)
    expect(expired.cause?.description).toBe('invalid_token')
    gitlab.addToken('glpat-revoked', { projects: { [PATH]: DEVELOPER } })
    gitlab.revokeToken('glpat-revoked')
    const revoked = await failure(
      new Gitlab({ host: gitlab.url, token: 'glpat-revoked' }).Projects.show(PATH),
    )
    expect(revoked.cause?.response.status).toBe(401)
  })

  it('raises GitbeakerRequestError 404 for a project the token cannot see, and 403 for a write below its level', async () => {
    const missing = await failure(api.Projects.show('acme/nothing'))
    expect(missing).toBeInstanceOf(GitbeakerRequestError)
    expect(missing.cause?.response.status).toBe(404)
    expect(missing.message).toBe('404 Project Not Found')
    const guest = new Gitlab({ host: gitlab.url, token: 'glpat-guest' })
    const forbidden = await failure(guest.Issues.edit(PATH, 1, { title: 'x' }))
    expect(forbidden.cause?.response.status).toBe(403)
  })

  it('creates an issue with labels, a milestone and a description; edits, closes and reopens it', async () => {
    const { id: milestoneId } = await api.ProjectMilestones.create(PATH, 'MVP')
    expect(await api.ProjectMilestones.all(PATH, { title: 'MVP' })).toHaveLength(1)
    await expect(api.ProjectMilestones.create(PATH, 'MVP')).rejects.toBeInstanceOf(GitbeakerRequestError)
    const label = await api.ProjectLabels.create(PATH, 'Payments', '#fa5252')
    expect(label).toMatchObject({ name: 'Payments', color: '#fa5252' })
    const duplicate = await failure(api.ProjectLabels.create(PATH, 'Payments', '#fa5252'))
    expect(duplicate.cause?.response.status).toBe(409)
    expect((await api.ProjectLabels.all(PATH)).map((l) => l.name)).toContain('Payments')

    const issue = await api.Issues.create(PATH, 'Pay by card', {
      description: 'Cards first.',
      labels: 'Payments,Needs design',
      milestoneId,
    })
    expect(issue).toMatchObject({
      iid: 46,
      state: 'opened',
      labels: ['Payments', 'Needs design'],
      milestone: { title: 'MVP' },
    })
    expect(issue.web_url).toBe(`${gitlab.url}/${PATH}/-/issues/46`)
    expect(gitlab.labels(PATH).find((l) => l.name === 'Needs design')?.color).toBe('#6699cc')

    const closed = await api.Issues.edit(PATH, issue.iid, {
      stateEvent: 'close',
      title: 'Pay',
      labels: 'Payments',
      milestoneId: 0,
    })
    expect(closed).toMatchObject({ state: 'closed', title: 'Pay', labels: ['Payments'], milestone: null })
    expect(Date.parse(closed.updated_at as string)).toBeGreaterThan(Date.parse(issue.updated_at as string))
    expect((await api.Issues.edit(PATH, issue.iid, { stateEvent: 'reopen' })).state).toBe('opened')
    expect(await api.Issues.show(issue.iid, { projectId: PATH })).toMatchObject({
      title: 'Pay',
      state: 'opened',
    })
  })

  it('pages every issue updated since a time, oldest first, through Link headers', async () => {
    const all = await api.Issues.all({ projectId: PATH, perPage: 10 })
    expect(all.length).toBeGreaterThanOrEqual(45)
    const since = gitlab.issue(PATH, 40)!.updated_at
    gitlab.resetCalls()
    const changed = await api.Issues.all({
      projectId: PATH,
      updatedAfter: since,
      orderBy: 'updated_at',
      sort: 'asc',
      perPage: 3,
    })
    expect(changed.map((i) => i.iid).slice(0, 6)).toEqual([40, 41, 42, 43, 44, 45])
    expect(changed.map((i) => i.updated_at)).toEqual([...changed.map((i) => i.updated_at)].sort())
    expect(gitlab.count('GET /api/v4/projects/:id/issues')).toBe(Math.ceil(changed.length / 3))
    const first = await api.Issues.all({ projectId: PATH, perPage: 20, page: 1, showExpanded: true })
    expect(first.paginationInfo).toMatchObject({ current: 1, next: 2, perPage: 20, total: 46, totalPages: 3 })
    expect(await api.Issues.all({ projectId: PATH, state: 'closed', labels: 'BUG' })).toHaveLength(3)
    expect((await api.Issues.all({ projectId: PATH, iids: [2, 3] })).map((i) => i.iid).sort()).toEqual([2, 3])
  })

  it('answers 404 for a deleted issue and shows a moved one closed with moved_to_id', async () => {
    const issue = await api.Issues.create(PATH, 'Doomed')
    gitlab.remove(PATH, issue.iid)
    const gone = await failure(api.Issues.show(issue.iid, { projectId: PATH }))
    expect(gone.cause?.response.status).toBe(404)
    const moving = await api.Issues.create(PATH, 'Elsewhere')
    const moved = await gitlab.moveAway(PATH, moving.iid, 'acme/other')
    const left = await api.Issues.show(moving.iid, { projectId: PATH })
    expect(left).toMatchObject({ state: 'closed', moved_to_id: moved.id })
    expect(featureFromGitlabIssue(left).missing).toBe(true)
    const owner = await failure(api.Issues.remove(PATH, moving.iid))
    expect(owner.cause?.response.status).toBe(403)
  })

  it('posts an Issue Hook with X-Gitlab-Token when a person changes an issue on GitLab', async () => {
    received.length = 0
    const issue = await gitlab.edit(PATH, 2, {
      title: 'Renamed on GitLab',
      state: 'closed',
      labels: ['bug', 'UX'],
    })
    expect(received).toHaveLength(1)
    const [{ headers, body }] = received
    expect(headers).toMatchObject({
      'x-gitlab-event': 'Issue Hook',
      'x-gitlab-token': 'hook-secret',
      'content-type': 'application/json',
    })
    expect(body).toMatchObject({
      object_kind: 'issue',
      project: { path_with_namespace: PATH },
      object_attributes: {
        iid: 2,
        action: 'close',
        state: 'closed',
        title: 'Renamed on GitLab',
        url: issue.web_url,
      },
      changes: { title: { previous: 'Issue 2', current: 'Renamed on GitLab' } },
    })
    expect(readIssueHook(body)).toMatchObject({
      iid: 2,
      feature: { status: 'CLOSED', title: 'Renamed on GitLab', labels: ['bug', 'UX'] },
    })
    await api.Issues.edit(PATH, 2, { stateEvent: 'reopen' })
    await gitlab.settled()
    expect(received.at(-1)!.body.object_attributes).toMatchObject({ action: 'reopen', state: 'opened' })
    expect(gitlab.deliveries.at(-1)).toMatchObject({ url: receiverUrl, status: 200 })
  })

  it('carries RateLimit headers on every answer', async () => {
    const { headers } = await api.Projects.show(PATH, { showExpanded: true })
    expect(headers).toMatchObject({ 'ratelimit-limit': '2000' })
    expect(Number(headers['ratelimit-remaining'])).toBeGreaterThan(0)
    expect(Number(headers['ratelimit-reset'])).toBeGreaterThan(Date.now() / 1000)
  })

  it('retries a 429 and a 502 by itself at once (Retry-After unread), then raises GitbeakerRetryError with no status', async () => {
    gitlab.resetCalls()
    gitlab.rateLimitNext(/\/issues$/, { retryAfter: 30, resetInSeconds: 60 })
    expect(await api.Issues.all({ projectId: PATH, perPage: 1, page: 1 })).toHaveLength(1)
    expect(gitlab.calls.map((c) => c.status)).toEqual([429, 200])
    gitlab.rateLimitNext(/\/issues$/, { retryAfter: 30 }, { times: 10 })
    const limited = await failure(api.Issues.all({ projectId: PATH, perPage: 1, page: 1 }))
    expect(limited).toBeInstanceOf(GitbeakerRetryError)
    expect(limited.message).toMatch(/after 10 retries, last status code: 429/)
    expect(gitlab.callsTo('GET', /\/issues$/).filter((c) => c.status === 429)).toHaveLength(11)
    gitlab.failNext(/\/issues$/, 502, { times: 10 })
    await expect(api.Issues.all({ projectId: PATH, perPage: 1, page: 1 })).rejects.toBeInstanceOf(
      GitbeakerRetryError,
    )
  })

  it('raises GitbeakerRequestError with the status for a 500 or 503, at once', async () => {
    for (const status of [500, 503]) {
      gitlab.resetCalls()
      gitlab.failNext(/\/projects\/[^/]+$/, status)
      const failed = await failure(api.Projects.show(PATH))
      expect(failed).toBeInstanceOf(GitbeakerRequestError)
      expect(failed.cause?.response.status).toBe(status)
      expect(gitlab.calls).toHaveLength(1)
    }
  })

  it('switches 401 and 404 on for any call, GitLab-worded, and off after the times asked', async () => {
    gitlab.failNext(/\/issues\/\d+$/, 401, { method: 'PUT' })
    gitlab.failNext(/\/issues\/\d+$/, 404, { method: 'GET', times: 2 })
    expect((await failure(api.Issues.edit(PATH, 1, { title: 'x' }))).message).toBe('401 Unauthorized')
    for (let i = 0; i < 2; i++)
      expect((await failure(api.Issues.show(1, { projectId: PATH }))).message).toBe('404 Not found')
    expect(await api.Issues.show(1, { projectId: PATH })).toMatchObject({ iid: 1 })
  })

  it('raises the fetch TypeError (cause UND_ERR_SOCKET), not a Gitbeaker error, for a cut connection', async () => {
    gitlab.dropNext(/\/projects\/[^/]+$/)
    const dropped: unknown = await failure(api.Projects.show(PATH))
    expect(dropped).toBeInstanceOf(TypeError)
    expect(dropped).not.toBeInstanceOf(GitbeakerRequestError)
    expect((dropped as TypeError & { cause: { code: string } }).cause.code).toBe('UND_ERR_SOCKET')
  })
})

describe('the fake GitLab through @gitbeaker/rest with one request per call (requesterFn: oneRequestRequester)', () => {
  const single = () => new Gitlab({ host: gitlab.url, token: 'glpat-good', requesterFn: oneRequestRequester })

  it('reads, writes and pages as the default requester does', async () => {
    const one = single()
    expect(await one.Projects.show(PATH)).toMatchObject({ path_with_namespace: PATH })
    const issue = await one.Issues.create(PATH, 'One request', { labels: 'Payments' })
    expect((await one.Issues.edit(PATH, issue.iid, { stateEvent: 'close' })).state).toBe('closed')
    gitlab.resetCalls()
    const all = await one.Issues.all({ projectId: PATH, orderBy: 'updated_at', sort: 'asc', perPage: 20 })
    expect(all.length).toBe(gitlab.issues(PATH).length)
    expect(gitlab.count('GET /api/v4/projects/:id/issues')).toBe(Math.ceil(all.length / 20))
    expect((await failure(one.Issues.remove(PATH, issue.iid))).cause?.response.status).toBe(403) // deleting needs Owner
  })

  it('raises GitbeakerRequestError 429 at the first one, with Retry-After and RateLimit-Reset to wait for', async () => {
    gitlab.resetCalls()
    gitlab.rateLimitNext(/\/issues$/, { retryAfter: 30, resetInSeconds: 60 })
    const limited = await failure(single().Issues.all({ projectId: PATH, perPage: 1, page: 1 }))
    expect(limited).toBeInstanceOf(GitbeakerRequestError)
    const response = limited.cause!.response
    expect(response.status).toBe(429)
    expect(gitlab.calls).toHaveLength(1)
    const headers = Object.fromEntries(response.headers.entries())
    const now = Date.now()
    expect(gitlabRateLimitUntil(response.status, headers, now)).toBe(now + 30_000)
    expect(Number(headers['ratelimit-reset'])).toBeGreaterThan(now / 1000)
  })

  it('raises GitbeakerRequestError 502 at once, and 401 with GitLab’s words', async () => {
    gitlab.resetCalls()
    gitlab.failNext(/\/projects\/[^/]+$/, 502)
    expect((await failure(single().Projects.show(PATH))).cause?.response.status).toBe(502)
    expect(gitlab.calls).toHaveLength(1)
    const stranger = new Gitlab({ host: gitlab.url, token: 'nope', requesterFn: oneRequestRequester })
    const refused = await failure(stranger.Projects.show(PATH))
    expect(refused.message).toBe('401 Unauthorized')
    expect(refused.cause?.response.status).toBe(401)
  })
})
