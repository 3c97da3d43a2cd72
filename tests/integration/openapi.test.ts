import { Validator } from '@seriousme/openapi-schema-validator'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addMember, uuid } from '../support/board'
import { Client } from '../support/client'
import { LiveStream } from '../support/live'
import { linkIn, startMailbox } from '../support/mailbox'
import { answerChecker } from '../support/openapi'
import { startReceiver } from '../support/receiver'
import { startServer, type RunningServer } from '../support/server'
import { FakeGithub } from '../support/fake-github'
import { FakeOpenAI } from '../support/fake-openai'
import { sign } from '@octokit/webhooks-methods'

/**
 * GET /v1/openapi.json (CONTRACT §10): a valid OpenAPI 3.1 document, and a true one: every
 * documented operation is called here, and each answer's status, media type and body must be
 * what the document says.
 */
const BASE = 'http://storymap.test'
let server: RunningServer
let mailbox: Awaited<ReturnType<typeof startMailbox>>
let doc: any
let checker: ReturnType<typeof answerChecker>
let github: FakeGithub
let openai: FakeOpenAI

beforeAll(async () => {
  mailbox = await startMailbox()
  github = await new FakeGithub().start()
  github.addRepo('acme/shop')
  github.addToken('tok', ['acme/shop'])
  openai = await new FakeOpenAI().start()
  server = await startServer({
    AI_BASE_URL: openai.url,
    AI_MODEL: 'storymap-test-model',
    SMTP_URL: mailbox.url,
    BASE_URL: BASE,
    WEBHOOKS_ALLOW_HTTP: 'true',
    WEBHOOKS_ALLOW_PRIVATE: 'true',
    GITHUB_API_URL: github.url,
    GITHUB_POLL_SECONDS: '3600',
  })
  const res = await fetch(`${server.url}/v1/openapi.json`)
  expect(res.status).toBe(200)
  doc = await res.json()
  checker = answerChecker(doc)
})
afterAll(async () => {
  await server?.stop()
  await mailbox?.close()
  await github?.stop()
  await openai?.stop()
})

/** One call to a documented operation; its answer is checked against the document. */
async function api(
  client: Client | null,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  template: string,
  params: Record<string, string> = {},
  body?: unknown,
  headers?: Record<string, string>,
) {
  const path = template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name]))
  const answer = await (client ?? new Client(server.url)).request(method, path, body, headers)
  checker.check(method, template, answer)
  return answer
}

let counter = 0
async function newAccount(name: string) {
  counter += 1
  const tag = `${Date.now().toString(36)}${counter}`
  const client = new Client(server.url)
  const email = `${name.toLowerCase()}${tag}@example.com`
  const res = await api(
    client,
    'POST',
    '/v1/users/signup',
    {},
    { workspaceName: `ws${tag}`, name, email, password: 'correct-horse' },
  )
  expect(res.status).toBe(200)
  const app = await api(client, 'GET', '/v1/account/app')
  client.workspaceId = app.json.workspaces[0].id
  return { client, email, account: res.json, workspaceId: client.workspaceId! }
}

describe('the document', () => {
  it('passes the OpenAPI 3.1 schema validator', async () => {
    const validator = new Validator()
    const result = await validator.validate(doc)
    expect(result.errors ?? [], JSON.stringify(result.errors, null, 1)).toEqual([])
    expect(result.valid).toBe(true)
    expect(validator.version).toBe('3.1')
  })

  it('is public JSON, and its methods are GET only', async () => {
    const post = await new Client(server.url).post('/v1/openapi.json', {})
    expect(post.status).toBe(405)
    expect(post.json.error).toBe('method_not_allowed')
  })
})

describe('real answers match the document', () => {
  it('accounts, sign-in and the public calls', async () => {
    const ana = await newAccount('Ana')
    const stranger = new Client(server.url)
    expect(
      (
        await api(
          stranger,
          'POST',
          '/v1/users/signup',
          {},
          { workspaceName: 'x', name: 'A', email: ana.email, password: 'correct-horse' },
        )
      ).status,
    ).toBe(400)
    expect(
      (await api(stranger, 'POST', '/v1/users/login', {}, { email: ana.email, password: 'wrong-horse' }))
        .status,
    ).toBe(401)
    expect(
      (await api(stranger, 'POST', '/v1/users/login', {}, { email: ana.email, password: 'correct-horse' }))
        .status,
    ).toBe(200)
    expect((await api(stranger, 'POST', '/v1/users/logout')).status).toBe(200)
    expect((await api(null, 'GET', '/v1/account/app')).status).toBe(401)
    const since = mailbox.mails.length
    expect((await api(null, 'POST', '/v1/users/reset/{email}', { email: ana.email })).status).toBe(200)
    expect((await api(null, 'POST', '/v1/users/reset/{email}', { email: 'not-an-address' })).status).toBe(400)
    const resetMail = await mailbox.waitFor(ana.email, since)
    const key = linkIn(resetMail, `${BASE}/account/reset/`).split('/').pop()!
    expect(
      (await api(null, 'POST', '/v1/users/setpassword', {}, { key, password: 'another-horse' })).status,
    ).toBe(200)
    expect(
      (await api(null, 'POST', '/v1/users/setpassword', {}, { key, password: 'another-horse' })).status,
    ).not.toBe(200)
    expect((await api(null, 'POST', '/v1/users/verify/{key}', { key: 'no-such-key' })).status).not.toBe(200)
    expect(
      (
        await api(
          null,
          'POST',
          '/v1/users/contact',
          {},
          { topic: 'general', body: 'Hello', sender: ana.email },
        )
      ).status,
    ).toBe(200)
    expect((await api(null, 'POST', '/v1/users/contact', {}, { body: '' })).status).toBe(400)
    expect((await api(null, 'GET', '/v1/users/invite/{key}', { key: 'no-such-invite' })).status).toBe(404)
  })

  it('the account, its workspaces and its tokens', async () => {
    const ana = await newAccount('Bea')
    expect(
      (await api(ana.client, 'POST', '/v1/account/nameupdate', {}, { name: 'Bea Baker' })).json.name,
    ).toBe('Bea Baker')
    expect((await api(ana.client, 'POST', '/v1/account/nameupdate', {}, { name: '' })).status).toBe(400)
    expect(
      (await api(ana.client, 'POST', '/v1/account/emailupdate/{email}', { email: `new${ana.email}` })).status,
    ).toBe(200)
    expect((await api(ana.client, 'POST', '/v1/account/resend')).status).toBe(200)
    const second = await api(
      ana.client,
      'POST',
      '/v1/account/workspaces',
      {},
      { name: `second${Date.now().toString(36)}` },
    )
    expect(second.status).toBe(200)
    expect(
      (await api(ana.client, 'POST', '/v1/account/workspaces', {}, { name: second.json.name })).status,
    ).toBe(409)

    const made = await api(
      ana.client,
      'POST',
      '/v1/account/tokens',
      {},
      { name: 'CI sync', workspaceId: ana.workspaceId, scope: 'read', expiresInDays: 30 },
    )
    expect(made.status).toBe(201)
    expect((await api(ana.client, 'GET', '/v1/account/tokens')).json.tokens).toHaveLength(1)
    const bearer = { Authorization: `Bearer ${made.json.secret}` }
    const script = new Client(server.url)
    expect((await api(script, 'GET', '/v1/projects', {}, undefined, bearer)).status).toBe(200)
    expect(
      (await api(script, 'POST', '/v1/projects/{id}', { id: uuid() }, { title: 'No' }, bearer)).json.error,
    ).toBe('token_read_only')
    expect((await api(script, 'GET', '/v1/account/app', {}, undefined, bearer)).json.error).toBe(
      'token_not_allowed',
    )
    expect(
      (await api(script, 'GET', '/v1/projects', {}, undefined, { Authorization: 'Bearer smp_nope' })).json
        .error,
    ).toBe('invalid_token')
    expect((await api(ana.client, 'GET', '/v1/workspace/tokens')).json.tokens).toHaveLength(1)
    expect(
      (await api(ana.client, 'DELETE', '/v1/workspace/tokens/{id}', { id: made.json.token.id })).status,
    ).toBe(200)
    expect(
      (await api(ana.client, 'DELETE', '/v1/account/tokens/{id}', { id: made.json.token.id })).status,
    ).toBe(404)

    const other = new Client(server.url, second.json.id)
    other.cookies = ana.client.cookies
    expect((await api(other, 'POST', '/v1/delete')).status).toBe(200)
    expect((await api(ana.client, 'POST', '/v1/account/delete')).status).toBe(200)
  })

  it('members, invitations and settings', async () => {
    const owner = await newAccount('Cid')
    const invited = await newAccount('Dee')
    const invite = await api(
      owner.client,
      'POST',
      '/v1/invites',
      {},
      { email: invited.email, level: 'EDITOR' },
    )
    expect(invite.status).toBe(200)
    expect((await api(owner.client, 'GET', '/v1/invites')).json).toHaveLength(1)
    expect(
      (await api(owner.client, 'POST', '/v1/invites', {}, { email: 'nope', level: 'EDITOR' })).status,
    ).toBe(400)
    const since = mailbox.mails.length
    expect((await api(owner.client, 'POST', '/v1/invites/{id}/resend', { id: invite.json.id })).status).toBe(
      200,
    )
    const key = linkIn(await mailbox.waitFor(invited.email, since), `${BASE}/account/invitation/`)
      .split('/')
      .pop()!
    expect((await api(null, 'GET', '/v1/users/invite/{key}', { key })).json.level).toBe('EDITOR')
    expect((await api(invited.client, 'POST', '/v1/users/invite/{key}', { key })).status).toBe(200)

    const members = await api(owner.client, 'GET', '/v1/members')
    const dee = members.json.find((m: { name: string }) => m.name === 'Dee')
    expect(
      (await api(owner.client, 'POST', '/v1/members/{id}/level', { id: dee.id }, { level: 'ADMIN' })).status,
    ).toBe(200)
    expect(
      (await api(owner.client, 'POST', '/v1/members/{id}/level', { id: dee.id }, { level: 'KING' })).status,
    ).toBe(400)
    const asDee = new Client(server.url, owner.workspaceId)
    asDee.cookies = invited.client.cookies
    expect((await api(asDee, 'POST', '/v1/leave')).status).toBe(200)
    expect((await api(asDee, 'GET', '/v1/members')).status).toBe(403)

    const third = await newAccount('Eve')
    addMember(server.dbPath, owner.workspaceId, third.account.id, 'VIEWER')
    const eve = (await api(owner.client, 'GET', '/v1/members')).json.find(
      (m: { name: string }) => m.name === 'Eve',
    )
    expect((await api(owner.client, 'DELETE', '/v1/members/{id}', { id: eve.id })).status).toBe(200)
    const again = await api(owner.client, 'POST', '/v1/invites', {}, { email: third.email })
    expect((await api(owner.client, 'DELETE', '/v1/invites/{id}', { id: again.json.id })).status).toBe(200)

    expect(
      (await api(owner.client, 'POST', '/v1/settings/allow-external-sharing', {}, { value: false })).json
        .allowExternalSharing,
    ).toBe(false)
    expect(
      (await api(owner.client, 'POST', '/v1/settings/allow-external-sharing', {}, { value: true })).json
        .allowExternalSharing,
    ).toBe(true)
    // Billing belongs to hosted mode; self-hosted refuses it in the documented shape.
    expect(
      (
        await api(
          owner.client,
          'POST',
          '/v1/settings/general-info',
          {},
          { euVat: '', externalBillingEmail: '' },
        )
      ).status,
    ).toBeGreaterThanOrEqual(400)
    expect(
      (
        await api(
          owner.client,
          'POST',
          '/v1/subscription/checkoutsession',
          {},
          { plan: 'basic', quantity: 1 },
        )
      ).status,
    ).toBeGreaterThanOrEqual(400)
    expect(
      (await api(owner.client, 'POST', '/v1/subscription/change', {}, { plan: 'cancel' })).status,
    ).toBeGreaterThanOrEqual(400)
    expect(
      (await api(null, 'POST', '/v1/subscription/webhook', {}, { id: 'evt_1', type: 'ping' })).status,
    ).toBe(404)
  })
})

describe('real answers of the map calls match the document', () => {
  it('every card kind and operation, comments, personas, history, trash, sharing, files and streams', async () => {
    const { client } = await newAccount('Fay')
    const id = {
      project: uuid(),
      workflow: uuid(),
      subworkflow: uuid(),
      milestone: uuid(),
      feature: uuid(),
      comment: uuid(),
      persona: uuid(),
      wp: uuid(),
    }
    const post = (template: string, params: Record<string, string>, body?: unknown) =>
      api(client, 'POST', template, params, body)
    expect((await post('/v1/projects/{id}', { id: id.project }, { title: 'Shop' })).status).toBe(200)
    expect((await post('/v1/projects/{id}', { id: id.project }, { title: 'Shop' })).status).toBe(409)
    expect((await post('/v1/projects/{id}', { id: 'not-a-uuid' }, { title: 'Shop' })).status).toBe(400)
    await post('/v1/workflows/{id}', { id: id.workflow }, { projectId: id.project, title: 'Buy' })
    await post('/v1/subworkflows/{id}', { id: id.subworkflow }, { workflowId: id.workflow, title: 'Pay' })
    await post('/v1/milestones/{id}', { id: id.milestone }, { projectId: id.project, title: 'MVP' })
    await post(
      '/v1/features/{id}',
      { id: id.feature },
      { milestoneId: id.milestone, subWorkflowId: id.subworkflow, title: 'Card' },
    )
    const ofKind = {
      milestones: id.milestone,
      workflows: id.workflow,
      subworkflows: id.subworkflow,
      features: id.feature,
    }
    const bodies: Record<string, unknown> = {
      rename: { title: 'Renamed' },
      description: { description: '**Bold**' },
      color: { color: 'TEAL' },
      annotations: { annotations: 'RISKY,IDEA' },
      estimate: { estimate: 5 },
      tags: { tagIds: [] },
      close: undefined,
      open: undefined,
    }
    const moves: Record<string, unknown> = {
      milestones: { index: 0 },
      workflows: { index: 0 },
      subworkflows: { toWorkflowId: id.workflow, index: 0 },
      features: { toSubWorkflowId: id.subworkflow, toMilestoneId: id.milestone, index: 0 },
    }
    // Closing and reopening last: a closed card takes no other edit.
    const last = (t: string) => (t.endsWith('/close') ? 1 : t.endsWith('/open') ? 2 : 0)
    const cardOps = Object.keys(doc.paths)
      // GitHub's (…/github), the trackers' (…/issue, …/issues) and the assistant are called in their own tests.
      .filter(
        (t) =>
          /^\/v1\/(milestones|workflows|subworkflows|features)\/\{id\}\/\w+$/.test(t) &&
          !/\/(github|issue|issues|assistant)$/.test(t),
      )
      .sort((a, b) => last(a) - last(b))
    for (const template of cardOps) {
      const [, segment, op] = /^\/v1\/(\w+)\/\{id\}\/(\w+)$/.exec(template)!
      const answer = await post(
        template,
        { id: ofKind[segment as keyof typeof ofKind] },
        op === 'move' ? moves[segment] : bodies[op],
      )
      expect(answer.status, `${template}: ${answer.text}`).toBe(200)
    }
    expect((await post('/v1/features/{id}/color', { id: id.feature }, { color: 'PLAID' })).status).toBe(400)
    expect((await post('/v1/features/{id}/rename', { id: uuid() }, { title: 'Ghost' })).status).toBe(404)
    const tag = uuid()
    expect(
      (await post('/v1/tags/{id}', { id: tag }, { projectId: id.project, name: 'Mobile', color: 'PINK' }))
        .json.name,
    ).toBe('Mobile')
    expect(
      (await post('/v1/tags/{id}', { id: uuid() }, { projectId: id.project, name: 'MOBILE', color: 'PINK' }))
        .status,
    ).toBe(409)
    expect((await post('/v1/tags/{id}/rename', { id: tag }, { name: 'Phone' })).json.name).toBe('Phone')
    expect((await post('/v1/tags/{id}/color', { id: tag }, { color: 'TEAL' })).json.color).toBe('TEAL')
    expect((await post('/v1/features/{id}/tags', { id: id.feature }, { tagIds: [tag] })).json.tagIds).toEqual(
      [tag],
    )
    await post('/v1/projects/{id}/rename', { id: id.project }, { title: 'Shop 2' })
    await post('/v1/projects/{id}/description', { id: id.project }, { description: 'A shop' })

    await post('/v1/featurecomments/{id}', { id: id.comment }, { featureId: id.feature, post: 'Hello' })
    await post('/v1/featurecomments/{id}/post', { id: id.comment }, { description: 'Hello again' })
    await post(
      '/v1/personas/{id}',
      { id: id.persona },
      { projectId: id.project, name: 'Pat', workflowId: id.workflow, workflowPersonaId: id.wp },
    )
    expect(
      (await api(client, 'PUT', '/v1/personas/{id}', { id: id.persona }, { name: 'Pat', role: 'Buyer' })).json
        .role,
    ).toBe('Buyer')
    expect((await api(client, 'DELETE', '/v1/workflowpersonas/{id}', { id: id.wp })).status).toBe(200)
    await post(
      '/v1/workflowpersonas/{id}',
      { id: uuid() },
      { workflowId: id.workflow, personaId: id.persona },
    )

    expect((await api(client, 'GET', '/v1/projects')).json).toHaveLength(1)
    const map = await api(client, 'GET', '/v1/projects/{id}', { id: id.project })
    expect(map.json.features[0]).toMatchObject({ title: 'Renamed', estimate: 5, color: 'TEAL' })
    expect((await api(client, 'GET', '/v1/projects/{id}', { id: uuid() })).status).toBe(404)
    expect(
      (await api(client, 'GET', '/v1/projects/{id}/activity', { id: id.project })).json.items.length,
    ).toBeGreaterThan(5)
    expect((await post('/v1/projects/{id}/undo', { id: id.project })).status).toBe(200)
    expect((await post('/v1/projects/{id}/redo', { id: id.project })).status).toBe(200)
    expect((await post('/v1/projects/{id}/redo', { id: id.project })).json.error).toBe('nothing_to_redo')

    expect((await api(client, 'DELETE', '/v1/featurecomments/{id}', { id: id.comment })).status).toBe(200)
    expect((await api(client, 'DELETE', '/v1/personas/{id}', { id: id.persona })).status).toBe(200)
    expect((await api(client, 'DELETE', '/v1/tags/{id}', { id: tag })).status).toBe(200)
    for (const [segment, cardId] of Object.entries(ofKind).reverse()) {
      expect((await api(client, 'DELETE', `/v1/${segment}/{id}`, { id: cardId })).status).toBe(200)
    }
    const trash = await api(client, 'GET', '/v1/projects/{id}/trash', { id: id.project })
    expect(trash.json.items.length).toBeGreaterThanOrEqual(3)
    const goal = trash.json.items.find((i: { kind: string }) => i.kind === 'workflow')
    const release = trash.json.items.find((i: { kind: string }) => i.kind === 'milestone')
    expect((await post('/v1/trash/{id}/restore', { id: goal.id })).json.kind).toBe('workflow')
    expect((await api(client, 'DELETE', '/v1/trash/{id}', { id: release.id })).status).toBe(200)

    const view = { collapsedWorkflows: [], collapsedMilestones: [], zoom: 50 }
    expect((await api(client, 'PUT', '/v1/projects/{id}/view', { id: id.project }, view)).json).toEqual(view)
    expect((await api(client, 'GET', '/v1/projects/{id}/view', { id: id.project })).json.zoom).toBe(50)

    const sharing = await api(client, 'GET', '/v1/projects/{id}/sharing', { id: id.project })
    expect(sharing.json.enabled).toBe(true)
    const key = (await post('/v1/projects/{id}/newlink', { id: id.project })).json.externalLink
    expect(key).not.toBe(sharing.json.externalLink)
    expect((await api(null, 'GET', '/v1/link/{key}', { key })).json.project.title).toBe('Shop 2')
    expect((await api(null, 'GET', '/v1/link/{key}/export', { key })).json.format).toBe('storymap')
    await stream('/v1/link/{key}/events', { key })
    expect(
      (await post('/v1/projects/{id}/sharing', { id: id.project }, { enabled: false })).json.enabled,
    ).toBe(false)
    expect((await api(null, 'GET', '/v1/link/{key}', { key })).status).toBe(404)
    expect((await api(null, 'GET', '/v1/link/{key}/export', { key })).status).toBe(404)
    await stream('/v1/projects/{id}/events', { id: id.project }, client)

    const file = await api(client, 'GET', '/v1/projects/{id}/export', { id: id.project })
    expect(file.headers.get('content-disposition')).toContain('.storymap.json')
    const imported = await api(client, 'POST', '/v1/projects/import', {}, file.json)
    expect(imported.json.project.title).toBe('Shop 2')
    expect((await api(client, 'POST', '/v1/projects/import', {}, { format: 'other' })).json.error).toBe(
      'import_invalid',
    )
    const copy = await post('/v1/projects/{id}/duplicate', { id: id.project }, { id: uuid(), title: 'Copy' })
    expect(copy.json.project.title).toBe('Copy')
    expect((await api(client, 'DELETE', '/v1/projects/{id}', { id: copy.json.project.id })).status).toBe(200)
    const projectTrash = await api(client, 'GET', '/v1/trash')
    expect(projectTrash.json.items[0]).toMatchObject({ kind: 'project', title: 'Copy' })
  })

  it('webhooks', async () => {
    const owner = await newAccount('Wanda')
    const receiver = await startReceiver()
    try {
      const made = await api(
        owner.client,
        'POST',
        '/v1/webhooks',
        {},
        { url: receiver.url, projectId: null, events: ['change'] },
      )
      expect(made.status).toBe(201)
      expect(
        (await api(owner.client, 'POST', '/v1/webhooks', {}, { url: 'nope', events: ['change'] })).json.error,
      ).toBe('url_invalid')
      expect((await api(owner.client, 'GET', '/v1/webhooks')).json.webhooks).toHaveLength(1)
      const id = made.json.webhook.id
      expect((await api(owner.client, 'POST', '/v1/webhooks/{id}/test', { id })).json.delivery.status).toBe(
        200,
      )
      expect(
        (await api(owner.client, 'GET', '/v1/webhooks/{id}/deliveries', { id })).json.deliveries,
      ).toHaveLength(1)
      expect((await api(owner.client, 'DELETE', '/v1/webhooks/{id}', { id })).status).toBe(200)
      expect((await api(owner.client, 'GET', '/v1/webhooks/{id}/deliveries', { id })).status).toBe(404)
    } finally {
      await receiver.close()
    }
  })

  it('GitHub sync', async () => {
    const { client } = await newAccount('Gus')
    const id = { project: uuid(), workflow: uuid(), subworkflow: uuid(), milestone: uuid(), feature: uuid() }
    const post = (template: string, params: Record<string, string>, body?: unknown) =>
      api(client, 'POST', template, params, body)
    await post('/v1/projects/{id}', { id: id.project }, { title: 'Shop' })
    await post('/v1/workflows/{id}', { id: id.workflow }, { projectId: id.project, title: 'Buy' })
    await post('/v1/subworkflows/{id}', { id: id.subworkflow }, { workflowId: id.workflow, title: 'Pay' })
    await post('/v1/milestones/{id}', { id: id.milestone }, { projectId: id.project, title: 'MVP' })
    await post(
      '/v1/features/{id}',
      { id: id.feature },
      { milestoneId: id.milestone, subWorkflowId: id.subworkflow, title: 'Card' },
    )
    const project = { id: id.project }
    expect((await api(client, 'GET', '/v1/projects/{id}/github', project)).json).toEqual({ github: null })
    expect((await post('/v1/projects/{id}/github/sync', project)).json.error).toBe('github_not_linked')
    expect(
      (
        await api(client, 'PUT', '/v1/projects/{id}/github', project, {
          repository: 'acme/shop',
          token: 'nope',
        })
      ).json.error,
    ).toBe('github_token_invalid')
    const linked = await api(client, 'PUT', '/v1/projects/{id}/github', project, {
      repository: 'acme/shop',
      token: 'tok',
    })
    expect(linked.status).toBe(200)
    expect((await api(client, 'GET', '/v1/projects/{id}', project)).json.project.github.repository).toBe(
      'acme/shop',
    )
    const pushed = await post('/v1/features/{id}/github', { id: id.feature })
    expect(pushed.json.github.number).toBeGreaterThan(0)
    expect((await post('/v1/features/{id}/github', { id: id.feature })).json.error).toBe('already_linked')
    expect((await post('/v1/milestones/{id}/github', { id: id.milestone })).json).toEqual({
      created: 0,
      failed: [],
    })
    github.seedIssue('acme/shop', { title: 'From GitHub' })
    expect(
      (
        await post('/v1/projects/{id}/github/import', project, {
          milestoneId: id.milestone,
          subWorkflowId: id.subworkflow,
        })
      ).json,
    ).toEqual({ imported: 1 })
    expect((await post('/v1/projects/{id}/github/sync', project)).status).toBe(200)
    expect(
      (await api(client, 'GET', '/v1/projects/{id}/github/log', project)).json.items.length,
    ).toBeGreaterThan(0)
    const body = JSON.stringify({ zen: 'Design for failure.' })
    const headers = {
      'X-GitHub-Event': 'ping',
      'X-Hub-Signature-256': await sign(linked.json.webhookSecret, body),
      'Content-Type': 'application/json',
    }
    expect(
      (await api(null, 'POST', '/v1/github/webhook/{projectId}', { projectId: id.project }, body, headers))
        .status,
    ).toBe(200)
    expect(
      (
        await api(null, 'POST', '/v1/github/webhook/{projectId}', { projectId: id.project }, body, {
          ...headers,
          'X-Hub-Signature-256': 'sha256=0',
        })
      ).status,
    ).toBe(401)
    expect((await api(client, 'DELETE', '/v1/projects/{id}/github', project)).json).toEqual({ github: null })
  })

  it('trackers (GitHub on the generic routes)', async () => {
    const { client } = await newAccount('Tia')
    const id = { project: uuid(), workflow: uuid(), subworkflow: uuid(), milestone: uuid(), feature: uuid() }
    const post = (template: string, params: Record<string, string>, body?: unknown) =>
      api(client, 'POST', template, params, body)
    await post('/v1/projects/{id}', { id: id.project }, { title: 'Shop' })
    await post('/v1/workflows/{id}', { id: id.workflow }, { projectId: id.project, title: 'Buy' })
    await post('/v1/subworkflows/{id}', { id: id.subworkflow }, { workflowId: id.workflow, title: 'Pay' })
    await post('/v1/milestones/{id}', { id: id.milestone }, { projectId: id.project, title: 'MVP' })
    await post(
      '/v1/features/{id}',
      { id: id.feature },
      { milestoneId: id.milestone, subWorkflowId: id.subworkflow, title: 'Card' },
    )
    const project = { id: id.project }
    expect((await api(client, 'GET', '/v1/projects/{id}/tracker', project)).json).toEqual({ tracker: null })
    const linked = await api(client, 'PUT', '/v1/projects/{id}/tracker', project, {
      provider: 'github',
      repository: 'acme/shop',
      token: 'tok',
    })
    expect(linked.status, linked.text).toBe(200)
    expect((await post('/v1/features/{id}/issue', { id: id.feature })).json.issue.key).toMatch(/^#\d+$/)
    expect((await post('/v1/milestones/{id}/issues', { id: id.milestone })).json).toEqual({
      created: 0,
      failed: [],
    })
    const imported = await post('/v1/projects/{id}/tracker/import', project, {
      milestoneId: id.milestone,
      subWorkflowId: id.subworkflow,
    })
    expect(imported.status, imported.text).toBe(200)
    expect((await post('/v1/projects/{id}/tracker/sync', project)).status).toBe(200)
    expect((await api(client, 'GET', '/v1/projects/{id}/tracker/log', project)).status).toBe(200)
    const body = JSON.stringify({ zen: 'Design for failure.' })
    const headers = {
      'X-GitHub-Event': 'ping',
      'X-Hub-Signature-256': await sign(linked.json.webhookSecret, body),
      'Content-Type': 'application/json',
    }
    expect(
      (await api(null, 'POST', '/v1/tracker/webhook/{projectId}', { projectId: id.project }, body, headers))
        .status,
    ).toBe(200)
    expect((await api(client, 'DELETE', '/v1/projects/{id}/tracker', project)).json).toEqual({
      tracker: null,
    })
  })

  it('templates (CONTRACT §16)', async () => {
    const { client } = await newAccount('Tem')
    const project = { id: uuid() }
    await api(client, 'POST', '/v1/projects/{id}', project, { title: 'Shop', templateId: 'online-shop' })
    expect((await api(client, 'GET', '/v1/templates')).json.templates.length).toBeGreaterThanOrEqual(4)
    const saved = await api(client, 'POST', '/v1/templates', {}, { projectId: project.id, title: 'Ours' })
    const template = { id: saved.json.template.id }
    expect((await api(client, 'PATCH', '/v1/templates/{id}', template, { title: 'Mine' })).status).toBe(200)
    expect((await api(client, 'DELETE', '/v1/templates/{id}', template)).status).toBe(200)
  })

  it('the assistant (CONTRACT §16)', async () => {
    const { client } = await newAccount('Asa')
    const drafted = await api(
      client,
      'POST',
      '/v1/assistant/draft-map',
      {},
      { description: 'A bike repair shop.' },
    )
    expect(drafted.status, drafted.text).toBe(200)
    const streamed = await api(
      client,
      'POST',
      '/v1/assistant/draft-map',
      {},
      { description: 'A bike repair shop.' },
      { Accept: 'application/x-ndjson' },
    )
    expect(
      streamed.text
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).type)
        .at(-1),
    ).toBe('done')
    const project = uuid()
    await api(
      client,
      'POST',
      '/v1/projects/{id}',
      { id: project },
      { title: 'Shop', templateId: 'online-shop' },
    )
    const feature = (await client.get(`/v1/projects/${project}`)).json.features[0].id
    const split = await api(
      client,
      'POST',
      '/v1/features/{id}/assistant',
      { id: feature },
      { action: 'split' },
    )
    expect(split.status, split.text).toBe(200)
    const criteria = await api(
      client,
      'POST',
      '/v1/features/{id}/assistant',
      { id: feature },
      { action: 'criteria' },
    )
    expect(criteria.json.criteria.length).toBeGreaterThan(0)
  })

  it('called every documented operation', () => {
    expect(checker.unseen()).toEqual([])
  })
})

/** Opens a live stream, checks its answer against the document, and closes it. */
async function stream(template: string, params: Record<string, string>, client?: Client) {
  const path = template.replace(/\{(\w+)\}/g, (_, name: string) => params[name])
  const live = await LiveStream.open(server.url, path, { client })
  expect(live.status).toBe(
    live.headers?.get('content-type')?.startsWith('text/event-stream') ? 200 : live.status,
  )
  checker.check('GET', template, {
    status: live.status,
    headers: live.headers!,
    json: live.body,
    text: String(live.body ?? ''),
  })
  if (live.status === 200) expect((await live.next()).event).toBe('ready')
  live.close()
}
