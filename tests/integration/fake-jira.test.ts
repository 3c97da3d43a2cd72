import express from 'express'
import crypto from 'node:crypto'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createCloudClient, type CloudClient } from 'jira.js'
import {
  AuthError,
  ForbiddenError,
  NetworkError,
  NotFoundError,
  RateLimitError,
  ServerError,
  ApiError,
} from 'jira.js/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  featureFromJiraIssue,
  issueKeysJql,
  issueTypeFor,
  jiraCreateFields,
  missingPermissions,
  readJiraWebhook,
  REQUIRED_PERMISSIONS,
  storyPointsFieldOf,
  SYNC_FIELDS,
  transitionFor,
  updatedSinceJql,
} from '~/features/trackers/jira/jira-mapping'
import { FakeJira } from '../support/fake-jira'

/**
 * The fake Jira Cloud speaks what `jira.js` (6.x, `createCloudClient`) expects, with every answer
 * checked against jira.js's own schemas (`onSchemaMismatch: 'throw'`): every call the connector
 * makes (CONTRACT §14), JQL paging, failures as the client raises them, and signed webhooks.
 */
const EMAIL = 'ada@example.com'
const TOKEN = 'atlassian-api-token'
let fake: FakeJira
let jira: CloudClient
let receiver: Server
let receiverUrl = ''
const received: { headers: Record<string, unknown>; raw: string }[] = []
const client = (email: string, apiToken: string) =>
  createCloudClient({ host: fake.url, auth: { type: 'basic', email, apiToken }, onSchemaMismatch: 'throw' })
const place = {
  permalink: 'https://maps.example.com/t/projects/p/f/f1',
  release: 'MVP',
  goal: 'Buy',
  activity: 'Pay',
}
const feature = {
  title: 'Pay by card',
  description: 'Cards **first**.\n\n- one\n- two',
  status: 'OPEN' as const,
  estimate: 5,
  tags: [{ name: 'Needs design', color: 'TEAL' }],
  place,
}

beforeAll(async () => {
  fake = await new FakeJira().start()
  fake.addProject('SHOP', { name: 'Shop' })
  fake.addProject('TASKS', { issueTypes: ['Task', 'Bug'] })
  fake.addProject('OTHER')
  fake.addUser(EMAIL, TOKEN, { timeZone: 'Europe/Berlin' })
  fake.addUser('viewer@example.com', 'viewer-token', {
    permissions: { SHOP: ['BROWSE_PROJECTS'], TASKS: [], OTHER: [] },
  })
  jira = client(EMAIL, TOKEN)
  for (let i = 1; i <= 7; i++) fake.seedIssue('SHOP', { summary: `Seed ${i}` })
  const app = express()
  app.use(express.text({ type: '*/*' }))
  app.post('/hook', (req, res) => {
    received.push({ headers: req.headers, raw: req.body as string })
    res.status(200).end()
  })
  await new Promise<void>((resolve) => {
    receiver = app.listen(0, '127.0.0.1', () => resolve())
  })
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`
  fake.addWebhook(receiverUrl, 'jira-secret')
})
afterAll(async () => {
  await fake?.stop()
  receiver?.close()
})

describe('the fake Jira Cloud, through jira.js', () => {
  it('checks a link: myself, the project and its issue types, permissions, the story-point field', async () => {
    expect(await jira.myself.getCurrentUser()).toMatchObject({
      emailAddress: EMAIL,
      timeZone: 'Europe/Berlin',
    })
    const project = await jira.projects.getProject({ projectIdOrKey: 'SHOP' })
    expect(issueTypeFor(project.issueTypes ?? [])).toMatchObject({ name: 'Story' })
    const tasks = await jira.projects.getProject({ projectIdOrKey: 'TASKS' })
    expect(issueTypeFor(tasks.issueTypes ?? [])).toMatchObject({ name: 'Task' })
    const mine = await jira.permissions.getMyPermissions({
      projectKey: 'SHOP',
      permissions: REQUIRED_PERMISSIONS.join(','),
    })
    expect(missingPermissions(mine)).toEqual([])
    const viewer = client('viewer@example.com', 'viewer-token')
    const theirs = await viewer.permissions.getMyPermissions({
      projectKey: 'SHOP',
      permissions: REQUIRED_PERMISSIONS.join(','),
    })
    expect(missingPermissions(theirs)).toEqual([...REQUIRED_PERMISSIONS])
    expect(fake.calls.at(-1)!.query).toEqual({
      projectKey: 'SHOP',
      permissions: 'CREATE_ISSUES,EDIT_ISSUES,TRANSITION_ISSUES',
    })
    expect(storyPointsFieldOf(await jira.issueFields.getFields())).toBe('customfield_10016')
    fake.setStoryPointsField('Story Points')
    expect(storyPointsFieldOf(await jira.issueFields.getFields())).toBe('customfield_10028')
    fake.setStoryPointsField(null)
    expect(storyPointsFieldOf(await jira.issueFields.getFields())).toBeNull()
    fake.setStoryPointsField('Story point estimate')
  })

  it('raises AuthError (status 401) for a wrong token and NotFoundError (404) for an unknown project', async () => {
    const refused = await client(EMAIL, 'wrong')
      .myself.getCurrentUser()
      .catch((e: unknown) => e)
    expect(refused).toBeInstanceOf(AuthError)
    expect(refused).toMatchObject({ status: 401 })
    const missing = await jira.projects.getProject({ projectIdOrKey: 'NOPE' }).catch((e: unknown) => e)
    expect(missing).toBeInstanceOf(NotFoundError)
    expect(missing).toMatchObject({
      status: 404,
      body: { errorMessages: ["No project could be found with key 'NOPE'."] },
    })
  })

  it('creates a Story with ADF description, labels, fix version and story points; reads it back unchanged', async () => {
    const version = await jira.projectVersions.createVersion({
      name: 'MVP',
      projectId: Number((await jira.projects.getProject({ projectIdOrKey: 'SHOP' })).id),
    })
    const duplicate = await jira.projectVersions
      .createVersion({ name: 'MVP', projectId: Number(version.projectId) })
      .catch((e: unknown) => e)
    expect(duplicate).toBeInstanceOf(ApiError)
    expect(duplicate).toMatchObject({ status: 400 })
    expect(
      (await jira.projectVersions.getProjectVersions({ projectIdOrKey: 'SHOP' })).map((v) => v.name),
    ).toEqual(['MVP'])
    const fields = jiraCreateFields(feature, {
      projectKey: 'SHOP',
      issueTypeId: issueTypeFor(fake.site.projects.get('SHOP')!.issueTypes)!.id,
      fixVersionId: version.id!,
      storyPointsField: 'customfield_10016',
    })
    const created = await jira.issues.createIssue({ fields })
    expect(created.key).toBe('SHOP-8')
    const issue = await jira.issues.getIssue({
      issueIdOrKey: created.key!,
      fields: [...SYNC_FIELDS, 'customfield_10016'],
    })
    expect(issue.fields).toMatchObject({
      labels: ['Needs-design'],
      fixVersions: [{ name: 'MVP' }],
      customfield_10016: 5,
      status: { name: 'To Do', statusCategory: { key: 'new' } },
    })
    expect(featureFromJiraIssue(issue)).toMatchObject({
      title: feature.title,
      description: feature.description,
      status: 'OPEN',
      statusName: 'To Do',
    })
  })

  it('refuses labels with spaces and a description that is not ADF, as Jira does', async () => {
    const spaced = await jira.issues
      .editIssue({ issueIdOrKey: 'SHOP-1', fields: { labels: ['Needs design'] } })
      .catch((e: unknown) => e)
    expect(spaced).toMatchObject({
      status: 400,
      body: { errors: { labels: "The label 'Needs design' contains spaces which is invalid." } },
    })
    const notAdf = await jira.issues
      .editIssue({ issueIdOrKey: 'SHOP-1', fields: { description: { text: 'x' } } })
      .catch((e: unknown) => e)
    expect(notAdf).toMatchObject({ status: 400 })
  })

  it('edits an issue and moves it through the workflow by transitions', async () => {
    await jira.issues.editIssue({ issueIdOrKey: 'SHOP-8', fields: { summary: 'Pay', labels: ['Payments'] } })
    const { transitions = [] } = await jira.issues.getTransitions({ issueIdOrKey: 'SHOP-8' })
    expect(transitions.map((t) => t.to?.statusCategory?.key)).toEqual(['indeterminate', 'done'])
    const close = transitionFor('CLOSED', 'new', transitions)
    expect(close).toMatchObject({ action: 'transition', id: '31' })
    await jira.issues.doTransition({ issueIdOrKey: 'SHOP-8', transition: { id: '31' } })
    const done = await jira.issues.getIssue({ issueIdOrKey: 'SHOP-8', fields: ['status', 'summary'] })
    expect(featureFromJiraIssue(done)).toMatchObject({ status: 'CLOSED', statusName: 'Done', title: 'Pay' })
    const reopen = transitionFor(
      'OPEN',
      'done',
      (await jira.issues.getTransitions({ issueIdOrKey: 'SHOP-8' })).transitions ?? [],
    )
    expect(reopen).toMatchObject({ action: 'transition', id: '11' })
    const invalid = await jira.issues
      .doTransition({ issueIdOrKey: 'SHOP-8', transition: { id: '31' } })
      .catch((e: unknown) => e)
    expect(invalid).toMatchObject({
      status: 400,
      body: { errorMessages: ["Transition id '31' is not valid for this issue."] },
    })
  })

  it('has a switch that takes the done transition away: tracker_transition_missing', async () => {
    fake.removeTransitionsTo('done')
    const { transitions = [] } = await jira.issues.getTransitions({ issueIdOrKey: 'SHOP-2' })
    expect(transitionFor('CLOSED', 'new', transitions)).toEqual({
      action: 'missing',
      code: 'tracker_transition_missing',
    })
    fake.setWorkflow(fake.site.statuses, [
      { id: '11', name: 'To Do', to: '10000' },
      { id: '21', name: 'In Progress', to: '3' },
      { id: '31', name: 'Done', to: '10001' },
    ])
  })

  it('pages a JQL search with nextPageToken, oldest change first, in one request per page', async () => {
    fake.resetCalls()
    const keys: string[] = []
    let nextPageToken: string | undefined
    do {
      const page = await jira.issueSearch.searchAndReconsileIssuesUsingJqlPost({
        jql: 'project = "SHOP" ORDER BY key ASC',
        fields: ['summary'],
        maxResults: 3,
        nextPageToken,
      })
      keys.push(...(page.issues ?? []).map((i) => i.key!))
      nextPageToken = page.nextPageToken ?? undefined
      expect(page.isLast).toBe(nextPageToken === undefined)
    } while (nextPageToken)
    expect(keys).toEqual(['SHOP-1', 'SHOP-2', 'SHOP-3', 'SHOP-4', 'SHOP-5', 'SHOP-6', 'SHOP-7', 'SHOP-8'])
    expect(fake.count('POST /rest/api/3/search/jql')).toBe(3)
    const bare = await jira.issueSearch.searchAndReconsileIssuesUsingJqlPost({
      jql: issueKeysJql(['SHOP-1']),
    })
    expect(bare.issues).toEqual([{ id: fake.issue('SHOP-1')!.id }])
    const stale = await jira.issueSearch
      .searchAndReconsileIssuesUsingJqlPost({ jql: 'project = "OTHER"', nextPageToken: 'x' })
      .catch((e: unknown) => e)
    expect(stale).toMatchObject({ status: 400 })
  })

  it('reads updated >= "yyyy-MM-dd HH:mm" to the minute in the account’s zone: a change in that minute comes again', async () => {
    fake.advance(60_000 - (fake.now() % 60_000) + 5_000) // 5 s into a fresh minute
    const { fields } = await fake.edit('SHOP-3', { summary: 'Changed in Jira' })
    const at = Date.parse(String(fields.updated).replace('+0000', 'Z'))
    fake.advance(20_000)
    const jql = updatedSinceJql('SHOP', at + 10_000, 'Europe/Berlin') // 10 s later, same minute
    expect(jql).toMatch(/^project = "SHOP" AND updated >= "\d{4}-\d\d-\d\d \d\d:\d\d" ORDER BY updated ASC$/)
    const again = await jira.issueSearch.searchAndReconsileIssuesUsingJqlPost({ jql, fields: SYNC_FIELDS })
    expect(again.issues?.map((i) => i.key)).toEqual(['SHOP-3'])
    // The same instant written in Tokyo time is read as Berlin time, hours later: the change is missed.
    const tokyo = await jira.issueSearch.searchAndReconsileIssuesUsingJqlPost({
      jql: updatedSinceJql('SHOP', at, 'Asia/Tokyo'),
      fields: ['summary'],
    })
    expect(tokyo.issues).toEqual([])
    const seconds = await jira.issueSearch
      .searchAndReconsileIssuesUsingJqlPost({ jql: 'project = "SHOP" AND updated >= "2026-11-27 10:05:30"' })
      .catch((e: unknown) => e)
    expect(seconds).toMatchObject({ status: 400 })
  })

  it('answers 404 for a deleted issue, and a moved issue under its new key', async () => {
    const { key } = await jira.issues.createIssue({
      fields: { project: { key: 'SHOP' }, issuetype: { name: 'Task' }, summary: 'Doomed' },
    })
    await jira.issues.deleteIssue({ issueIdOrKey: key! })
    await expect(jira.issues.getIssue({ issueIdOrKey: key! })).rejects.toBeInstanceOf(NotFoundError)
    const newKey = fake.moveAway('SHOP-4', 'OTHER')
    expect((await jira.issues.getIssue({ issueIdOrKey: 'SHOP-4', fields: ['summary'] })).key).toBe(newKey)
  })

  it('posts signed webhooks for jira:issue_updated and jira:issue_deleted', async () => {
    received.length = 0
    await fake.edit('SHOP-5', { status: 'Done', labels: ['UX'] })
    await fake.remove('SHOP-6')
    expect(received).toHaveLength(2)
    for (const { headers, raw } of received) {
      const hex = crypto.createHmac('sha256', 'jira-secret').update(raw).digest('hex')
      expect(headers['x-hub-signature']).toBe(`sha256=${hex}`)
    }
    const updated = JSON.parse(received[0].raw)
    expect(updated).toMatchObject({
      webhookEvent: 'jira:issue_updated',
      issue: { key: 'SHOP-5', fields: { status: { name: 'Done' } } },
    })
    expect(updated.changelog.items.map((i: { field: string }) => i.field).sort()).toEqual([
      'labels',
      'status',
    ])
    expect(readJiraWebhook(updated)).toMatchObject({ key: 'SHOP-5', deleted: false })
    expect(readJiraWebhook(JSON.parse(received[1].raw))).toMatchObject({ key: 'SHOP-6', deleted: true })
    await jira.issues.editIssue({ issueIdOrKey: 'SHOP-5', fields: { summary: 'Through the API' } })
    await fake.settled()
    expect(JSON.parse(received.at(-1)!.raw).user.emailAddress).toBe(EMAIL)
  })

  it('raises ForbiddenError (403) for a write without the permission', async () => {
    const viewer = client('viewer@example.com', 'viewer-token')
    const refused = await viewer.issues
      .editIssue({ issueIdOrKey: 'SHOP-1', fields: { summary: 'x' } })
      .catch((e: unknown) => e)
    expect(refused).toBeInstanceOf(ForbiddenError)
  })

  it('raises RateLimitError (429) with retryAfterMs from Retry-After, and makes no second call', async () => {
    fake.resetCalls()
    fake.rateLimitNext(/\/search\/jql$/, { retryAfter: 7 })
    const limited = await jira.issueSearch
      .searchAndReconsileIssuesUsingJqlPost({ jql: 'project = "SHOP"' })
      .catch((e: unknown) => e)
    expect(limited).toBeInstanceOf(RateLimitError)
    expect(limited).toMatchObject({ status: 429, retryAfterMs: 7000 })
    expect(fake.calls).toHaveLength(1)
  })

  it('raises ServerError for a 500 and a 503 (no retry unless the client is told to)', async () => {
    for (const status of [500, 503]) {
      fake.resetCalls()
      fake.failNext(/\/myself$/, status)
      const failed = await jira.myself.getCurrentUser().catch((e: unknown) => e)
      expect(failed).toBeInstanceOf(ServerError)
      expect(failed).toMatchObject({ status })
      expect(fake.calls).toHaveLength(1)
    }
  })

  it('switches 401 and 404 on for any call: AuthError and NotFoundError', async () => {
    fake.failNext(/\/issue\/SHOP-1$/, 401, { method: 'PUT' })
    fake.failNext(/\/issue\/SHOP-1$/, 404)
    await expect(
      jira.issues.editIssue({ issueIdOrKey: 'SHOP-1', fields: { summary: 'x' } }),
    ).rejects.toBeInstanceOf(AuthError)
    await expect(jira.issues.getIssue({ issueIdOrKey: 'SHOP-1' })).rejects.toBeInstanceOf(NotFoundError)
    expect(await jira.issues.getIssue({ issueIdOrKey: 'SHOP-1', fields: ['summary'] })).toMatchObject({
      key: 'SHOP-1',
    })
  })

  it('raises NetworkError, transient, code UND_ERR_SOCKET, for a cut connection', async () => {
    fake.dropNext(/\/myself$/)
    const dropped = await jira.myself.getCurrentUser().catch((e: unknown) => e)
    expect(dropped).toBeInstanceOf(NetworkError)
    expect(dropped).toMatchObject({ transient: true, code: 'UND_ERR_SOCKET' })
  })
})
