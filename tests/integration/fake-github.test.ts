import { Octokit } from '@octokit/rest'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FakeGithub } from '../support/fake-github'

/**
 * The fake GitHub speaks what the real client expects: Octokit pages through its Link headers,
 * gets 304 for an unchanged list, and sees rate limits, 5xx and cut connections as GitHub's.
 */
const REPO = 'acme/shop'
let github: FakeGithub
let octokit: Octokit

beforeAll(async () => {
  github = await new FakeGithub().start()
  github.addRepo(REPO)
  github.addToken('good', [REPO])
  octokit = new Octokit({
    auth: 'good',
    baseUrl: github.url,
    log: { debug() {}, info() {}, warn() {}, error() {} },
  })
  for (let i = 1; i <= 130; i++)
    github.seedIssue(REPO, { title: `Issue ${i}`, labels: i % 2 ? ['bug'] : [], pullRequest: i === 3 })
})
afterAll(() => github?.stop())

describe('the fake GitHub, through Octokit', () => {
  it('pages a list with Link headers', async () => {
    const all = await octokit.paginate(octokit.rest.issues.listForRepo, {
      owner: 'acme',
      repo: 'shop',
      state: 'all',
      per_page: 50,
    })
    expect(all).toHaveLength(130)
    expect(all.filter((i) => i.pull_request)).toHaveLength(1)
    const bugs = await octokit.paginate(octokit.rest.issues.listForRepo, {
      owner: 'acme',
      repo: 'shop',
      labels: 'BUG',
      per_page: 100,
    })
    expect(bugs).toHaveLength(65)
  })

  it('answers 304 to an unchanged list, free of the rate limit, and 200 once something changed', async () => {
    const first = await octokit.rest.issues.listForRepo({
      owner: 'acme',
      repo: 'shop',
      state: 'all',
      sort: 'updated',
      direction: 'asc',
      per_page: 100,
    })
    const etag = first.headers.etag!
    const before = github.costly
    await expect(
      octokit.rest.issues.listForRepo({
        owner: 'acme',
        repo: 'shop',
        state: 'all',
        sort: 'updated',
        direction: 'asc',
        per_page: 100,
        headers: { 'if-none-match': etag },
      }),
    ).rejects.toMatchObject({ status: 304 })
    expect(github.costly).toBe(before)
    github.edit(REPO, 1, { title: 'Changed' })
    const again = await octokit.rest.issues.listForRepo({
      owner: 'acme',
      repo: 'shop',
      state: 'all',
      sort: 'updated',
      direction: 'asc',
      per_page: 100,
      headers: { 'if-none-match': etag },
    })
    expect(again.status).toBe(200)
    expect(again.headers['x-ratelimit-remaining']).toBeDefined()
  })

  it('creates, edits and labels issues', async () => {
    const { data: label } = await octokit.rest.issues.createLabel({
      owner: 'acme',
      repo: 'shop',
      name: 'Payments',
      color: '339af0',
    })
    expect(label.color).toBe('339af0')
    await expect(
      octokit.rest.issues.createLabel({ owner: 'acme', repo: 'shop', name: 'payments', color: 'ffffff' }),
    ).rejects.toMatchObject({ status: 422 })
    const { data: issue } = await octokit.rest.issues.create({
      owner: 'acme',
      repo: 'shop',
      title: 'Pay',
      labels: ['Payments'],
    })
    const { data: closed } = await octokit.rest.issues.update({
      owner: 'acme',
      repo: 'shop',
      issue_number: issue.number,
      state: 'closed',
    })
    expect(closed).toMatchObject({ state: 'closed', labels: [{ name: 'Payments' }] })
    github.remove(REPO, issue.number, 'deleted')
    await expect(
      octokit.rest.issues.get({ owner: 'acme', repo: 'shop', issue_number: issue.number }),
    ).rejects.toMatchObject({ status: 410 })
  })

  it('refuses unknown tokens and hidden repositories, and says so as GitHub does', async () => {
    const stranger = new Octokit({
      auth: 'nope',
      baseUrl: github.url,
      log: { debug() {}, info() {}, warn() {}, error() {} },
    })
    await expect(stranger.rest.repos.get({ owner: 'acme', repo: 'shop' })).rejects.toMatchObject({
      status: 401,
    })
    await expect(octokit.rest.repos.get({ owner: 'acme', repo: 'other' })).rejects.toMatchObject({
      status: 404,
    })
    const { data } = await octokit.rest.repos.get({ owner: 'acme', repo: 'shop' })
    expect(data).toMatchObject({ full_name: REPO, permissions: { push: true } })
  })

  it('rate-limits, fails and drops connections on demand', async () => {
    github.rateLimitNext(/\/issues$/, { status: 403, resetInSeconds: 30 })
    const limited = await octokit.rest.issues.listForRepo({ owner: 'acme', repo: 'shop' }).catch((e) => e)
    expect(limited.status).toBe(403)
    expect(limited.response.headers['x-ratelimit-remaining']).toBe('0')
    expect(Number(limited.response.headers['x-ratelimit-reset'])).toBeGreaterThan(Date.now() / 1000)
    github.rateLimitNext(/\/issues$/, { status: 429, retryAfter: 7 })
    expect(
      (await octokit.rest.issues.listForRepo({ owner: 'acme', repo: 'shop' }).catch((e) => e)).response
        .headers['retry-after'],
    ).toBe('7')
    github.failNext(/\/issues$/, 502)
    expect(
      await octokit.rest.issues.listForRepo({ owner: 'acme', repo: 'shop' }).catch((e) => e.status),
    ).toBe(502)
    github.dropNext(/\/issues$/)
    const dropped = await octokit.rest.issues.listForRepo({ owner: 'acme', repo: 'shop' }).catch((e) => e)
    expect(dropped.status).toBe(500)
    expect(dropped.response).toBeUndefined()
  })
})
