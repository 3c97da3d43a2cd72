import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bundle, makeBoard } from '../support/board'
import { signUp } from '../support/client'
import { FakeGithub } from '../support/fake-github'
import { DEVELOPER, FakeGitlab } from '../support/fake-gitlab'
import { eventually, featureOf, link, rows } from '../support/github'
import { startServer, type RunningServer } from '../support/server'

/**
 * GitHub is the connector's third provider (CONTRACT §14, ADR 38): one worker serves GitHub and
 * GitLab links side by side; a GitHub push waiting from before the fold (migration 0016: §13's
 * outbox row and its github_issues row) is sent by the connector after a restart; the generic
 * routes answer for a GitHub link with `"provider": "github"`.
 */
const REPO = 'acme/shop'
const PATH = 'acme/web'
let server: RunningServer
let github: FakeGithub
let gitlab: FakeGitlab
const env = () => ({
  GITHUB_API_URL: github.url,
  GITHUB_POLL_SECONDS: '1',
  TRACKER_POLL_SECONDS: '1',
  TRACKER_ALLOW_HTTP: 'true',
  TRACKER_ALLOW_PRIVATE: 'true',
})

beforeAll(async () => {
  github = await new FakeGithub().start()
  github.addRepo(REPO)
  github.addToken('tok', [REPO])
  gitlab = await new FakeGitlab().start()
  gitlab.addProject(PATH)
  gitlab.addToken('glpat-good', { projects: { [PATH]: DEVELOPER } })
  server = await startServer(env())
})
afterAll(async () => {
  await server?.stop()
  await github?.stop()
  await gitlab?.stop()
})

describe('GitHub on the connector', () => {
  it('one worker pushes and polls a GitHub and a GitLab link side by side', async () => {
    const owner = await signUp(server.url, { name: 'Ana' })
    const onGithub = await makeBoard(owner.client)
    const onGitlab = await makeBoard(owner.client)
    await link(owner.client, onGithub.project, REPO, 'tok')
    const linked = await owner.client.put(`/v1/projects/${onGitlab.project}/tracker`, {
      provider: 'gitlab',
      url: gitlab.url,
      project: PATH,
      token: 'glpat-good',
    })
    expect(linked.status, linked.text).toBe(200)
    const ghIssue = (await owner.client.post(`/v1/features/${onGithub.feature}/issue`)).json.issue
    const glIssue = (await owner.client.post(`/v1/features/${onGitlab.feature}/issue`)).json.issue
    expect(ghIssue).toMatchObject({ provider: 'github', key: '#1', state: 'open' })
    expect(glIssue).toMatchObject({ provider: 'gitlab', key: '#1', state: 'open' })
    expect(
      rows(
        server.dbPath,
        'select provider, issue_id from tracker_issues where project_id in (?, ?)',
        onGithub.project,
        onGitlab.project,
      )
        .map((r) => r.provider)
        .sort(),
    ).toEqual(['github', 'gitlab'])

    await owner.client.post(`/v1/features/${onGithub.feature}/rename`, { title: 'To GitHub' })
    await owner.client.post(`/v1/features/${onGitlab.feature}/rename`, { title: 'To GitLab' })
    await eventually(
      () => [github.issue(REPO, 1)!.title, gitlab.issue(PATH, 1)!.title],
      ([a, b]) => a === 'To GitHub' && b === 'To GitLab',
    )
    github.edit(REPO, 1, { state: 'closed' })
    await gitlab.edit(PATH, 1, { state: 'closed' })
    await eventually(
      async () => [
        featureOf(await bundle(owner.client, onGithub.project), onGithub.feature),
        featureOf(await bundle(owner.client, onGitlab.project), onGitlab.feature),
      ],
      ([a, b]) => a.status === 'CLOSED' && b.status === 'CLOSED',
    )
    const map = await bundle(owner.client, onGithub.project)
    expect(featureOf(map, onGithub.feature)).toMatchObject({
      github: { number: 1, state: 'closed' },
      issue: { provider: 'github', key: '#1', state: 'closed' },
    })

    // The generic routes answer for the GitHub link too.
    const tracker = (await owner.client.get(`/v1/projects/${onGithub.project}/tracker`)).json.tracker
    expect(tracker).toMatchObject({
      provider: 'github',
      project: REPO,
      status: 'ok',
      url: 'https://github.com',
    })
    const log = (await owner.client.get(`/v1/projects/${onGithub.project}/tracker/log`)).json.items
    expect(log).toContainEqual(expect.objectContaining({ direction: 'pull', issue: '#1', action: 'state' }))
    const github13 = (await owner.client.get(`/v1/projects/${onGithub.project}/github/log`)).json.items
    expect(github13).toContainEqual(expect.objectContaining({ direction: 'pull', issue: 1, action: 'state' }))
    // §13's routes see no GitHub link on the GitLab project.
    expect((await owner.client.get(`/v1/projects/${onGitlab.project}/github`)).json).toEqual({ github: null })
    expect((await owner.client.post(`/v1/projects/${onGitlab.project}/github/sync`)).json.error).toBe(
      'github_not_linked',
    )
  })

  it("sends a GitHub push that waited from before the fold (its github_issues row and §13's outbox row) after a restart", async () => {
    const owner = await signUp(server.url, { name: 'Bo' })
    const ids = await makeBoard(owner.client)
    await link(owner.client, ids.project, REPO, 'tok')
    const { number } = (await owner.client.post(`/v1/features/${ids.feature}/github`)).json.github
    await eventually(
      () => rows(server.dbPath, 'select * from tracker_issues where feature_id = ?', ids.feature),
      (r) => r.length === 1,
    )
    expect(await server.stop()).toBe(0)

    // The database as §13's own sync left it: github_issues, and a push queued with §13's field names.
    const db = new Database(server.dbPath)
    db.exec(`create table github_issues (feature_id text primary key not null, project_id text not null,
      repository text not null, number integer not null, title text not null, body text not null,
      labels text not null, state text not null, issue_updated_at text not null)`)
    db.prepare(
      `insert into github_issues select feature_id, project_id, project, cast(issue_id as integer), title, body, labels, state, issue_updated_at
       from tracker_issues where feature_id = ?`,
    ).run(ids.feature)
    db.prepare('delete from tracker_issues where feature_id = ?').run(ids.feature)
    const now = new Date().toISOString()
    db.prepare('update features set title = ?, last_modified = ? where id = ?').run(
      'Waited',
      now,
      ids.feature,
    )
    db.prepare(
      `insert into github_outbox (project_id, feature_id, provider, fields, created_at, next_at) values (?, ?, 'github', '["title"]', ?, ?)`,
    ).run(ids.project, ids.feature, now, now)
    const last = db.prepare('select max(created_at) as at from __drizzle_migrations').get() as { at: number }
    db.prepare('delete from __drizzle_migrations where created_at = ?').run(last.at)
    db.close()

    server = await startServer(env(), { dir: server.dir })
    await eventually(
      () => github.issue(REPO, number)!.title,
      (title) => title === 'Waited',
      15_000,
    )
    await eventually(
      () => rows(server.dbPath, 'select * from github_outbox where feature_id = ?', ids.feature),
      (r) => r.length === 0,
    )
    expect(
      rows(
        server.dbPath,
        'select provider, project, issue_id, key from tracker_issues where feature_id = ?',
        ids.feature,
      ),
    ).toEqual([{ provider: 'github', project: REPO, issue_id: String(number), key: `#${number}` }])
    expect(
      rows(server.dbPath, "select name from sqlite_master where type = 'table' and name = 'github_issues'"),
    ).toEqual([])
  }, 40_000)
})
