import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { applyChangeEvent } from '~/features/map/event-merge'
import { addMember, bundle, makeBoard, send, uuid, writeCalls } from '../support/board'
import { Client, signUp } from '../support/client'
import { LiveStream } from '../support/live'
import { linkIn, startMailbox } from '../support/mailbox'
import { startServer, type RunningServer } from '../support/server'

/** CONTRACT §6 against the real built server: the change events, replay, presence, and who may listen. */
let server: RunningServer
let mailbox: Awaited<ReturnType<typeof startMailbox>>
const BASE = 'http://storymap.test'
const streams: LiveStream[] = []

beforeAll(async () => {
  mailbox = await startMailbox()
  server = await startServer({ SMTP_URL: mailbox.url, BASE_URL: BASE })
})
afterAll(async () => {
  for (const s of streams) s.close()
  await server?.stop()
  await mailbox?.close()
})

async function listen(path: string, options: Parameters<typeof LiveStream.open>[2] = {}) {
  const stream = await LiveStream.open(server.url, path, options)
  streams.push(stream)
  return stream
}

function sql(statement: string, ...params: unknown[]) {
  const db = new Database(server.dbPath)
  db.pragma('busy_timeout = 5000')
  try {
    db.prepare(statement).run(...params)
  } finally {
    db.close()
  }
}

describe('change events', () => {
  it('every write kind yields one change event, next in version, that turns the old bundle into the new one', async () => {
    const owner = await signUp(server.url)
    const template = writeCalls(await makeBoard(owner.client))
    const kinds = template
      .map((c) => c.name)
      .filter((name) => !['project create', 'allow external sharing'].includes(name))
    expect(kinds.length).toBeGreaterThan(35)
    for (const name of kinds) {
      // A fresh board per call, so every call applies to cards in their first state.
      const ids = await makeBoard(owner.client)
      const call = writeCalls(ids).find((c) => c.name === name)!
      // The persona starts on the goal: take it off so it can be put back.
      if (name === 'workflowpersona create')
        await owner.client.delete(`/v1/workflowpersonas/${ids.workflowPersona}`)
      const before = await bundle(owner.client, ids.project)
      const stream = await listen(`/v1/projects/${ids.project}/events?since=${before.version}`, {
        client: owner.client,
      })
      expect((await stream.next('ready')).data.version).toBe(before.version)

      const res = await send(owner.client, call)
      expect(res.status, `${name}: ${res.text}`).toBe(200)
      const change = await stream.next('change')
      expect(change.id, name).toBe(String(before.version + 1))
      expect(change.data).toMatchObject({ version: before.version + 1, by: { name: owner.name } })
      expect(Date.parse(change.data.at)).not.toBeNaN()

      if (name === 'project delete') {
        expect(change.data.changes).toContainEqual({ op: 'delete', kind: 'project', id: ids.project })
        await stream.endedWithin(5000)
        continue
      }
      const after = await bundle(owner.client, ids.project)
      expect(after.version, name).toBe(before.version + 1)
      expect(applyChangeEvent(before, change.data), name).toEqual(after)
      stream.close()
    }
  })

  it('a delete lists every entity it removes; a re-ranking move every card whose rank changed', async () => {
    const owner = await signUp(server.url)
    const ids = await makeBoard(owner.client)
    const second = uuid()
    const third = uuid()
    for (const id of [second, third])
      await owner.client.post(`/v1/features/${id}`, {
        milestoneId: ids.milestone,
        subWorkflowId: ids.subworkflow,
        title: 'F',
      })
    // No rank fits between these two: moving the third card between them re-ranks the whole cell.
    sql('update features set rank = ? where id = ?', 'n', ids.feature)
    sql('update features set rank = ? where id = ?', 'naaaaaab', second)
    const before = await bundle(owner.client, ids.project)
    const stream = await listen(`/v1/projects/${ids.project}/events`, { client: owner.client })
    await stream.next('ready')
    const move = await owner.client.post(`/v1/features/${third}/move`, {
      toSubWorkflowId: ids.subworkflow,
      toMilestoneId: ids.milestone,
      index: 1,
    })
    expect(move.status).toBe(200)
    const moved = (await stream.next('change')).data
    expect(moved.changes.map((c: { entity: { id: string } }) => c.entity.id).sort()).toEqual(
      [ids.feature, second, third].sort(),
    )
    expect(applyChangeEvent(before, moved)).toEqual(await bundle(owner.client, ids.project))

    expect((await owner.client.delete(`/v1/workflows/${ids.workflow}`)).status).toBe(200)
    const deleted = (await stream.next('change')).data.changes
    expect(deleted).toEqual(
      expect.arrayContaining([
        { op: 'delete', kind: 'workflow', id: ids.workflow },
        { op: 'delete', kind: 'subWorkflow', id: ids.subworkflow },
        { op: 'delete', kind: 'feature', id: ids.feature },
        { op: 'delete', kind: 'feature', id: second },
        { op: 'delete', kind: 'feature', id: third },
        { op: 'delete', kind: 'featureComment', id: ids.comment },
        { op: 'delete', kind: 'workflowPersona', id: ids.workflowPersona },
      ]),
    )
    expect(deleted).toHaveLength(7)
  })

  it('refused writes and writes outside the map make no event and no version', async () => {
    const owner = await signUp(server.url)
    const ids = await makeBoard(owner.client)
    const start = (await bundle(owner.client, ids.project)).version
    const stream = await listen(`/v1/projects/${ids.project}/events`, { client: owner.client })
    await stream.next('ready')
    expect((await owner.client.post(`/v1/features/${ids.feature}/rename`, { title: '' })).status).toBe(400)
    expect((await owner.client.post(`/v1/features/${uuid()}/rename`, { title: 'Nope' })).status).toBe(404)
    expect((await owner.client.post('/v1/settings/allow-external-sharing', { value: false })).status).toBe(
      200,
    )
    // The next event is the next real change: nothing came in between.
    await owner.client.post(`/v1/features/${ids.feature}/rename`, { title: 'Real' })
    expect((await stream.next('change')).data.version).toBe(start + 1)
    expect((await bundle(owner.client, ids.project)).version).toBe(start + 1)
  })

  it('changes arrive in order, without gaps, from concurrent writers', async () => {
    const owner = await signUp(server.url)
    const ids = await makeBoard(owner.client)
    const start = (await bundle(owner.client, ids.project)).version
    const stream = await listen(`/v1/projects/${ids.project}/events`, { client: owner.client })
    await stream.next('ready')
    await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        owner.client.post(`/v1/features/${ids.feature}/rename`, { title: `T${i}` }),
      ),
    )
    const versions = []
    for (let i = 0; i < 30; i++) versions.push((await stream.next('change')).data.version)
    expect(versions).toEqual(Array.from({ length: 30 }, (_, i) => start + 1 + i))
    expect((await bundle(owner.client, ids.project)).version).toBe(start + 30)
  })
})

describe('replay and reset', () => {
  it('replays every change after Last-Event-ID or ?since, right after ready, then goes on live', async () => {
    const owner = await signUp(server.url)
    const ids = await makeBoard(owner.client)
    const from = (await bundle(owner.client, ids.project)).version
    for (const title of ['A', 'B', 'C'])
      await owner.client.post(`/v1/features/${ids.feature}/rename`, { title })

    for (const options of [{ lastEventId: String(from) }, {}]) {
      const path = `/v1/projects/${ids.project}/events${'lastEventId' in options ? '' : `?since=${from}`}`
      const stream = await listen(path, { client: owner.client, ...options })
      expect((await stream.next()).event).toBe('ready')
      const replayed = [await stream.next(), await stream.next(), await stream.next()]
      expect(replayed.map((e) => [e.event, e.data.changes[0].entity.title])).toEqual([
        ['change', 'A'],
        ['change', 'B'],
        ['change', 'C'],
      ])
      stream.close()
    }
    // Last-Event-ID wins over a stale ?since (a browser reconnecting to the URL it started with).
    const both = await listen(`/v1/projects/${ids.project}/events?since=${from}`, {
      client: owner.client,
      lastEventId: String(from + 2),
    })
    await both.next('ready')
    expect((await both.next()).data.version).toBe(from + 3)
    await owner.client.post(`/v1/features/${ids.feature}/rename`, { title: 'D' })
    expect((await both.next()).data).toMatchObject({ version: from + 4 })
  })

  it('answers reset when the client is ahead of the log, and refuses a malformed version', async () => {
    const owner = await signUp(server.url)
    const ids = await makeBoard(owner.client)
    const version = (await bundle(owner.client, ids.project)).version
    const stream = await listen(`/v1/projects/${ids.project}/events?since=${version + 50}`, {
      client: owner.client,
    })
    expect(await stream.next()).toMatchObject({ event: 'reset', data: { version } })
    expect(await stream.next()).toMatchObject({ event: 'ready', data: { version } })
    const bad = await listen(`/v1/projects/${ids.project}/events?since=abc`, { client: owner.client })
    expect(bad.status).toBe(400)
    expect(bad.body).toMatchObject({ error: 'since_invalid' })
  })
})

describe('presence', () => {
  it('lists each signed-in member once, however many tabs, and tells every stream when that changes', async () => {
    const owner = await signUp(server.url, { name: 'Ann Owner' })
    const ids = await makeBoard(owner.client)
    const bob = await signUp(server.url, { name: 'Bob Viewer' })
    addMember(server.dbPath, owner.workspaceId, bob.account.id, 'VIEWER')
    const path = `/v1/projects/${ids.project}/events`
    const names = (e: { data: { viewers: { name: string }[] } }) => e.data.viewers.map((v) => v.name)

    const annTab1 = await listen(path, { client: owner.client })
    expect(names(await annTab1.next('ready'))).toEqual(['Ann Owner'])
    const annTab2 = await listen(path, { client: owner.client })
    expect(names(await annTab2.next('ready'))).toEqual(['Ann Owner'])
    const bobTab = await listen(path, { client: bob.client })
    const bobReady = await bobTab.next('ready')
    expect(names(bobReady)).toEqual(['Ann Owner', 'Bob Viewer'])
    expect(bobReady.data.viewers.every((v: { memberId: string }) => /^[0-9a-f-]{36}$/.test(v.memberId))).toBe(
      true,
    )
    expect(names(await annTab1.next('presence'))).toEqual(['Ann Owner', 'Bob Viewer'])
    expect(names(await annTab2.next('presence'))).toEqual(['Ann Owner', 'Bob Viewer'])

    // A public-link viewer is not listed, and sees the same presence.
    const link = await listen(
      `/v1/link/${(await bundle(owner.client, ids.project)).project.externalLink}/events`,
    )
    expect(names(await link.next('ready'))).toEqual(['Ann Owner', 'Bob Viewer'])

    annTab2.close() // Ann is still there in her other tab: no presence event for that
    bobTab.close()
    expect(names(await annTab1.next('presence'))).toEqual(['Ann Owner'])
    expect(names(await link.next('presence'))).toEqual(['Ann Owner'])
  })
})

describe('who may listen', () => {
  it('refuses before the stream starts: 401 without a session, 404 for another workspace or no project, 400 for a bad id', async () => {
    const owner = await signUp(server.url)
    const ids = await makeBoard(owner.client)
    const stranger = await signUp(server.url)
    expect(await listen(`/v1/projects/${ids.project}/events`)).toMatchObject({
      status: 401,
      body: { error: 'unauthorized' },
    })
    expect(await listen(`/v1/projects/${ids.project}/events`, { client: stranger.client })).toMatchObject({
      status: 404,
      body: { error: 'project_not_found' },
    })
    expect((await listen(`/v1/projects/${uuid()}/events`, { client: owner.client })).status).toBe(404)
    expect((await listen('/v1/projects/not-an-id/events', { client: owner.client })).status).toBe(400)
    expect((await listen('/v1/link/no-such-key/events')).status).toBe(404)
    const ok = await listen(`/v1/projects/${ids.project}/events`, { client: owner.client })
    expect(ok.headers?.get('content-type')).toMatch(/^text\/event-stream/)
    expect(ok.headers?.get('x-accel-buffering')).toBe('no')
    expect(ok.headers?.get('content-encoding')).toBeNull()
  })

  it('ends a stream within 5 s when the member is removed, logs out or resets the password', async () => {
    const owner = await signUp(server.url)
    const ids = await makeBoard(owner.client)
    const path = `/v1/projects/${ids.project}/events`
    const join = async () => {
      const user = await signUp(server.url)
      addMember(server.dbPath, owner.workspaceId, user.account.id, 'EDITOR')
      const stream = await listen(path, { client: user.client })
      await stream.next('ready')
      return { user, stream }
    }

    const removed = await join()
    const members = (await owner.client.get('/v1/members')).json as { id: string; accountId: string }[]
    const memberId = members.find((m) => m.accountId === removed.user.account.id)!.id
    expect((await owner.client.delete(`/v1/members/${memberId}`)).status).toBe(200)
    await removed.stream.endedWithin(5000)
    expect((await listen(path, { client: removed.user.client })).status).toBe(404)

    const loggedOut = await join()
    const copy = new Client(server.url)
    copy.cookies = new Map(loggedOut.user.client.cookies)
    expect((await loggedOut.user.client.post('/v1/users/logout')).status).toBe(200)
    await loggedOut.stream.endedWithin(5000)
    expect((await listen(path, { client: copy })).status).toBe(401)

    const reset = await join()
    const since = mailbox.mails.length
    expect(
      (await new Client(server.url).post(`/v1/users/reset/${encodeURIComponent(reset.user.email)}`)).status,
    ).toBe(200)
    const key = linkIn(await mailbox.waitFor(reset.user.email, since), `${BASE}/account/reset/`)
      .split('/')
      .pop()
    expect(
      (await new Client(server.url).post('/v1/users/setpassword', { key, password: 'another-pass' })).status,
    ).toBe(200)
    await reset.stream.endedWithin(5000)
  })

  it('every level and an inactive plan may listen; the link stream ends when sharing goes off', async () => {
    const owner = await signUp(server.url)
    const ids = await makeBoard(owner.client)
    const viewer = await signUp(server.url)
    addMember(server.dbPath, owner.workspaceId, viewer.account.id, 'VIEWER')
    sql(
      "update subscriptions set expiration_date = '2000-01-01T00:00:00.000Z' where workspace_id = ?",
      owner.workspaceId,
    )
    const viewerStream = await listen(`/v1/projects/${ids.project}/events`, { client: viewer.client })
    expect((await viewerStream.next('ready')).data.version).toBeGreaterThan(0)
    sql('update subscriptions set expiration_date = null where workspace_id = ?', owner.workspaceId)

    const key = (await bundle(owner.client, ids.project)).project.externalLink
    const link = await listen(`/v1/link/${key}/events`)
    await link.next('ready')
    await owner.client.post(`/v1/features/${ids.feature}/rename`, { title: 'Seen by all' })
    expect((await link.next('change')).data.changes[0].entity.title).toBe('Seen by all')
    expect((await viewerStream.next('change')).data.changes[0].entity.title).toBe('Seen by all')
    expect((await owner.client.post('/v1/settings/allow-external-sharing', { value: false })).status).toBe(
      200,
    )
    await link.endedWithin(5000)
    expect((await listen(`/v1/link/${key}/events`)).status).toBe(404)
    expect(viewerStream.closedByServer).toBe(false)
  })
})

describe('access (what a member may do, while the stream is open)', () => {
  it('says within 5 s when the member’s level changes or the plan ends or comes back, and nothing else', async () => {
    const owner = await signUp(server.url)
    const ids = await makeBoard(owner.client)
    const editor = await signUp(server.url)
    addMember(server.dbPath, owner.workspaceId, editor.account.id, 'EDITOR')
    const members = (await owner.client.get('/v1/members')).json as { id: string; accountId: string }[]
    const memberId = members.find((m) => m.accountId === editor.account.id)!.id
    const stream = await listen(`/v1/projects/${ids.project}/events`, { client: editor.client })
    expect((await stream.next('ready')).data.access).toEqual({ level: 'EDITOR', canEdit: true })

    expect((await owner.client.post(`/v1/members/${memberId}/level`, { level: 'VIEWER' })).status).toBe(200)
    expect((await stream.next('access', 5000)).data).toEqual({ level: 'VIEWER', canEdit: false })
    expect((await owner.client.post(`/v1/members/${memberId}/level`, { level: 'ADMIN' })).status).toBe(200)
    expect((await stream.next('access', 5000)).data).toEqual({ level: 'ADMIN', canEdit: true })

    sql(
      "update subscriptions set expiration_date = '2000-01-01T00:00:00.000Z' where workspace_id = ?",
      owner.workspaceId,
    )
    expect((await stream.next('access', 5000)).data).toEqual({ level: 'ADMIN', canEdit: false })
    sql('update subscriptions set expiration_date = null where workspace_id = ?', owner.workspaceId)
    expect((await stream.next('access', 5000)).data).toEqual({ level: 'ADMIN', canEdit: true })

    // A change to the map is a change, not an access event; the stream stays open throughout.
    await owner.client.post(`/v1/features/${ids.feature}/rename`, { title: 'Still listening' })
    await stream.next('change')
    expect((await stream.settle()).filter((e) => e.event === 'access')).toEqual([])
    expect(stream.closedByServer).toBe(false)
  })

  it('hears, with no write at all, of a trial that ends and a session that expires while the stream is open', async () => {
    // The periodic check asks only streams whose answer may have changed since the last write to
    // who may do what; a trial's end and a session's expiry come with time alone.
    const owner = await signUp(server.url)
    const ids = await makeBoard(owner.client)
    const path = `/v1/projects/${ids.project}/events`
    const stream = await listen(path, { client: owner.client })
    expect((await stream.next('ready')).data.access).toEqual({ level: 'OWNER', canEdit: true })
    const soon = () => new Date(Date.now() + 3000).toISOString()
    sql(
      "update subscriptions set external_status = 'trialing', expiration_date = ? where workspace_id = ?",
      soon(),
      owner.workspaceId,
    )
    // Two sweeps go by with nothing written before the trial ends; the one after it says so.
    expect((await stream.next('access', 9000)).data).toEqual({ level: 'OWNER', canEdit: false })
    sql(
      "update subscriptions set external_status = 'active', expiration_date = null where workspace_id = ?",
      owner.workspaceId,
    )
    expect((await stream.next('access', 5000)).data).toEqual({ level: 'OWNER', canEdit: true })

    const member = await signUp(server.url)
    addMember(server.dbPath, owner.workspaceId, member.account.id, 'EDITOR')
    const expiring = await listen(path, { client: member.client })
    await expiring.next('ready')
    sql('update sessions set expires_at = ? where account_id = ?', soon(), member.account.id)
    await expiring.endedWithin(9000)
    expect(stream.closedByServer).toBe(false)
  })

  it('a read-only token’s stream says it cannot edit', async () => {
    const owner = await signUp(server.url)
    const ids = await makeBoard(owner.client)
    const created = await owner.client.post('/v1/account/tokens', {
      name: 'Reader',
      workspaceId: owner.workspaceId,
      scope: 'read',
    })
    expect(created.status).toBe(201)
    const stream = await listen(`/v1/projects/${ids.project}/events`, {
      headers: { Authorization: `Bearer ${created.json.secret}` },
    })
    expect((await stream.next('ready')).data.access).toEqual({ level: 'OWNER', canEdit: false })
  })
})
