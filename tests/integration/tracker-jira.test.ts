import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bundle, makeBoard, uuid } from '../support/board'
import { signUp } from '../support/client'
import { FakeJira } from '../support/fake-jira'
import { eventually, featureOf, rows } from '../support/github'
import { startServer, type RunningServer } from '../support/server'

/**
 * Jira Cloud through the one connector (CONTRACT §14), against the fake Jira: link (myself,
 * project, permissions, issue type, story-point field), push (ADF with the footer, labels without
 * spaces, fix version, story points, transitions by category), pull by JQL and by signed webhook.
 */
const EMAIL = 'ada@example.com'
const TOKEN = 'atlassian-api-token'
let server: RunningServer
let jira: FakeJira

beforeAll(async () => {
  jira = await new FakeJira().start()
  jira.addProject('SHOP', { name: 'Shop' })
  jira.addProject('OTHER')
  jira.addUser(EMAIL, TOKEN, { timeZone: 'Europe/Berlin' })
  jira.addUser('viewer@example.com', 'viewer-token', {
    permissions: { SHOP: ['BROWSE_PROJECTS'], OTHER: [] },
  })
  jira.setStoryPointsField('Story point estimate')
  server = await startServer({ TRACKER_ALLOW_HTTP: 'true', TRACKER_POLL_SECONDS: '1' })
})
afterAll(async () => {
  await server?.stop()
  await jira?.stop()
})

const linkBody = (over: Record<string, string> = {}) => ({
  provider: 'jira',
  url: jira.url,
  project: 'SHOP',
  email: EMAIL,
  token: TOKEN,
  ...over,
})

async function linkedBoard() {
  const owner = await signUp(server.url, { name: 'Bea' })
  const ids = await makeBoard(owner.client)
  const res = await owner.client.put(`/v1/projects/${ids.project}/tracker`, linkBody())
  expect(res.status, res.text).toBe(200)
  return { owner, ids, webhookSecret: res.json.webhookSecret as string }
}

describe('Jira Cloud', () => {
  it('links with e-mail and API token, checked at once; refuses a wrong token, project or permissions', async () => {
    const owner = await signUp(server.url, { name: 'Ana' })
    const ids = await makeBoard(owner.client)
    const put = (body: unknown) => owner.client.put(`/v1/projects/${ids.project}/tracker`, body)
    expect((await put(linkBody({ token: 'wrong' }))).json.error).toBe('tracker_token_invalid')
    expect((await put(linkBody({ project: 'NOPE' }))).json.error).toBe('tracker_project_invalid')
    const viewer = await put(linkBody({ email: 'viewer@example.com', token: 'viewer-token' }))
    expect([viewer.status, viewer.json.error]).toEqual([400, 'tracker_permission_missing'])
    expect((await put(linkBody({ email: 'not-an-email' }))).json.error).toBe('validation_failed')
    const res = await put(linkBody())
    expect(res.status, res.text).toBe(200)
    expect(res.json.tracker).toMatchObject({
      provider: 'jira',
      url: jira.url,
      project: 'SHOP',
      status: 'ok',
      tokenExpiresAt: null,
      linkedBy: { name: 'Ana' },
    })
    const [stored] = rows(
      server.dbPath,
      'select token_cipher, settings from github_links where project_id = ?',
      ids.project,
    )
    expect(stored.token_cipher).not.toContain(TOKEN)
    expect(JSON.parse(stored.settings)).toMatchObject({
      storyPointsField: 'customfield_10016',
      timeZone: 'Europe/Berlin',
    })
  })

  it('creates a Story: ADF description with the footer, labels with - for spaces, fix version, story points', async () => {
    const { owner, ids } = await linkedBoard()
    const tagId = uuid()
    await owner.client.post(`/v1/tags/${tagId}`, {
      projectId: ids.project,
      name: 'Needs design',
      color: 'TEAL',
    })
    await owner.client.post(`/v1/features/${ids.feature}/tags`, { tagIds: [tagId] })
    await owner.client.post(`/v1/features/${ids.feature}/description`, { description: 'Cards **first**.' })
    await owner.client.post(`/v1/features/${ids.feature}/estimate`, { estimate: 5 })
    const res = await owner.client.post(`/v1/features/${ids.feature}/issue`)
    expect(res.status, res.text).toBe(200)
    expect(res.json.issue).toEqual({
      provider: 'jira',
      key: expect.stringMatching(/^SHOP-\d+$/),
      url: `${jira.url}/browse/${res.json.issue.key}`,
      state: 'open',
      status: 'To Do',
    })
    const issue = jira.issue(res.json.issue.key)!
    expect(issue.fields).toMatchObject({
      summary: 'Feature',
      labels: ['Needs-design'],
      fixVersions: [{ name: 'Release' }],
      issuetype: { name: 'Story' },
    })
    const adf = JSON.stringify(issue.fields.description)
    expect(adf).toContain('"type":"rule"')
    expect(adf).toContain('Story map: ')
    expect(adf).toContain('"type":"strong"')
  })

  it('closes by a transition to a done status and reopens; Jira changes come back by polling with the status name', async () => {
    const { owner, ids } = await linkedBoard()
    const key = (await owner.client.post(`/v1/features/${ids.feature}/issue`)).json.issue.key as string
    await owner.client.post(`/v1/features/${ids.feature}/close`)
    const closed = await eventually(
      () => jira.issue(key)!,
      (i) => (i.fields.status as { statusCategory: { key: string } }).statusCategory.key === 'done',
    )
    expect((closed.fields.status as { name: string }).name).toBe('Done')
    await eventually(
      async () => featureOf(await bundle(owner.client, ids.project), ids.feature),
      (f) => f.issue.state === 'closed' && f.issue.status === 'Done',
    )
    jira.advance(61_000)
    await jira.edit(key, { summary: 'Renamed in Jira', status: 'In Progress' })
    const feature = await eventually(
      async () => featureOf(await bundle(owner.client, ids.project), ids.feature),
      (f) => f.title === 'Renamed in Jira',
    )
    expect(feature).toMatchObject({ status: 'OPEN', issue: { state: 'open', status: 'In Progress' } })
  })

  it('takes a signed admin webhook at once and refuses a wrong signature', async () => {
    const { owner, ids, webhookSecret } = await linkedBoard()
    const key = (await owner.client.post(`/v1/features/${ids.feature}/issue`)).json.issue.key as string
    const unsigned = await fetch(`${server.url}/v1/tracker/webhook/${ids.project}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Hub-Signature': 'sha256=00' },
      body: JSON.stringify({ webhookEvent: 'jira:issue_updated', issue: { key } }),
    })
    expect(unsigned.status).toBe(401)
    jira.addWebhook(`${server.url}/v1/tracker/webhook/${ids.project}`, webhookSecret)
    jira.advance(61_000)
    await jira.edit(key, { summary: 'Hooked' })
    expect(featureOf(await bundle(owner.client, ids.project), ids.feature).title).toBe('Hooked')
  })

  it('a push with no transition to the wanted category fails in the log with tracker_transition_missing; the map keeps it', async () => {
    const { owner, ids } = await linkedBoard()
    await owner.client.post(`/v1/features/${ids.feature}/issue`)
    jira.removeTransitionsTo('done')
    await owner.client.post(`/v1/features/${ids.feature}/close`)
    const log = await eventually(
      async () => (await owner.client.get(`/v1/projects/${ids.project}/tracker/log`)).json.items,
      (items: { direction: string; status: string; error: string | null }[]) =>
        items.some((e) => e.status === 'failed' && e.error === 'tracker_transition_missing'),
    )
    expect(log[0].direction).toBe('push')
    expect(featureOf(await bundle(owner.client, ids.project), ids.feature).status).toBe('CLOSED')
  })
})
