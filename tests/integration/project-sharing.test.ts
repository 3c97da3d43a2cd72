import Database from 'better-sqlite3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addMember, bundle, makeBoard, uuid } from '../support/board'
import { Client, signUp } from '../support/client'
import { LiveStream } from '../support/live'
import { startServer, type RunningServer } from '../support/server'

/** Sharing is the owner's choice (CONTRACT §8 end): per project on and off, and a new link. */
let server: RunningServer
beforeAll(async () => {
  server = await startServer()
})
afterAll(async () => {
  await server?.stop()
})

const NOT_FOUND = { error: 'not_found', message: 'Project not found.' }
const anonymous = () => new Client(server.url)
const listen = (path: string) => LiveStream.open(server.url, path)
const form = (fields: Record<string, string>) => new URLSearchParams(fields)

function sql(statement: string, ...args: unknown[]) {
  const db = new Database(server.dbPath)
  try {
    db.prepare(statement).run(...args)
  } finally {
    db.close()
  }
}

async function sharedBoard() {
  const owner = await signUp(server.url)
  const ids = await makeBoard(owner.client)
  const key = (await bundle(owner.client, ids.project)).project.externalLink as string
  return { owner, ids, key }
}

/** Another account at `level` in the owner's workspace, its client pointed there. */
async function teammate(owner: Awaited<ReturnType<typeof signUp>>, level: 'VIEWER' | 'EDITOR' | 'ADMIN') {
  const user = await signUp(server.url)
  addMember(server.dbPath, owner.workspaceId, user.account.id, level)
  user.client.workspaceId = owner.workspaceId
  return user.client
}

describe('POST /v1/projects/{id}/sharing', () => {
  it('stops and restarts one project’s share link; the page, the API and the export answer 404 meanwhile', async () => {
    const { owner, ids, key } = await sharedBoard()
    const other = await makeBoard(owner.client)
    const otherKey = (await bundle(owner.client, other.project)).project.externalLink
    expect(await owner.client.get(`/v1/projects/${ids.project}/sharing`)).toMatchObject({
      status: 200,
      json: { enabled: true, externalLink: key },
    })

    const off = await owner.client.post(`/v1/projects/${ids.project}/sharing`, { enabled: false })
    expect(off).toMatchObject({ status: 200, json: { enabled: false, externalLink: key } })
    expect(await anonymous().get(`/v1/link/${key}`)).toMatchObject({ status: 404, json: NOT_FOUND })
    expect((await anonymous().get(`/v1/link/${key}/export`)).status).toBe(404)
    const page = await anonymous().get(`/link/${key}`)
    expect(page.status).toBe(404)
    expect(page.text).toContain('Project not found.')
    // Only that project: the workspace's other maps stay shared.
    expect((await anonymous().get(`/v1/link/${otherKey}`)).status).toBe(200)
    // The board no longer offers the link.
    const board = await owner.client.get(`/${owner.workspaceName}/projects/${ids.project}`)
    expect(board.status).toBe(200)
    expect(board.text).not.toContain(`/link/${key}`)

    const on = await owner.client.post(`/v1/projects/${ids.project}/sharing`, { enabled: true })
    expect(on).toMatchObject({ status: 200, json: { enabled: true, externalLink: key } })
    expect((await anonymous().get(`/v1/link/${key}`)).status).toBe(200)
    expect((await owner.client.get(`/${owner.workspaceName}/projects/${ids.project}`)).text).toContain(
      `/link/${key}`,
    )
  })

  it('is for ADMIN and OWNER on an active plan; the others are refused and nothing changes', async () => {
    const { owner, ids, key } = await sharedBoard()
    for (const level of ['VIEWER', 'EDITOR'] as const) {
      const c = await teammate(owner, level)
      for (const call of [
        c.post(`/v1/projects/${ids.project}/sharing`, { enabled: false }),
        c.post(`/v1/projects/${ids.project}/newlink`),
      ]) {
        expect(await call).toMatchObject({ status: 403, json: { error: 'level_too_low' } })
      }
      // Reading the state is for every member.
      expect((await c.get(`/v1/projects/${ids.project}/sharing`)).json).toEqual({
        enabled: true,
        externalLink: key,
      })
    }
    expect((await anonymous().get(`/v1/link/${key}`)).status).toBe(200)
    const admin = await teammate(owner, 'ADMIN')
    expect((await admin.post(`/v1/projects/${ids.project}/sharing`, { enabled: false })).status).toBe(200)
    expect((await anonymous().get(`/v1/link/${key}`)).status).toBe(404)

    sql("update subscriptions set external_status = 'canceled' where workspace_id = ?", owner.workspaceId)
    expect(await owner.client.post(`/v1/projects/${ids.project}/sharing`, { enabled: true })).toMatchObject({
      status: 403,
      json: { error: 'plan_inactive' },
    })
    expect((await owner.client.post(`/v1/projects/${ids.project}/newlink`)).status).toBe(403)
  })

  it('refuses bad bodies, other workspaces’ projects and callers without a session', async () => {
    const { owner, ids } = await sharedBoard()
    for (const body of [{}, { enabled: 'no' }, { enabled: 1 }]) {
      expect(await owner.client.post(`/v1/projects/${ids.project}/sharing`, body)).toMatchObject({
        status: 400,
        json: { error: 'enabled_invalid' },
      })
    }
    expect((await owner.client.post(`/v1/projects/${uuid()}/sharing`, { enabled: false })).status).toBe(404)
    expect((await owner.client.post('/v1/projects/not-an-id/newlink')).status).toBe(400)
    const stranger = await signUp(server.url)
    expect(
      (await stranger.client.post(`/v1/projects/${ids.project}/sharing`, { enabled: false })).status,
    ).toBe(404)
    expect((await stranger.client.post(`/v1/projects/${ids.project}/newlink`)).status).toBe(404)
    expect((await stranger.client.get(`/v1/projects/${ids.project}/sharing`)).status).toBe(404)
    const signedOut = new Client(server.url, owner.workspaceId)
    expect((await signedOut.post(`/v1/projects/${ids.project}/sharing`, { enabled: false })).status).toBe(401)
  })

  it('ends the link’s live streams within 5 s', async () => {
    const { owner, ids, key } = await sharedBoard()
    const stream = await listen(`/v1/link/${key}/events`)
    await stream.next('ready')
    expect((await owner.client.post(`/v1/projects/${ids.project}/sharing`, { enabled: false })).status).toBe(
      200,
    )
    await stream.endedWithin(5000)
    expect((await listen(`/v1/link/${key}/events`)).status).toBe(404)
  })
})

describe('POST /v1/projects/{id}/newlink', () => {
  it('gives the project a new key: the old link is 404 at once, its streams end, the new one works', async () => {
    const { owner, ids, key } = await sharedBoard()
    const stream = await listen(`/v1/link/${key}/events`)
    await stream.next('ready')
    const made = await owner.client.post(`/v1/projects/${ids.project}/newlink`)
    expect(made.status).toBe(200)
    const fresh = made.json.externalLink as string
    expect(fresh).toMatch(/^[A-Za-z0-9_-]{22,}$/)
    expect(fresh).not.toBe(key)
    expect(made.json.enabled).toBe(true)

    expect(await anonymous().get(`/v1/link/${key}`)).toMatchObject({ status: 404, json: NOT_FOUND })
    expect((await anonymous().get(`/link/${key}`)).status).toBe(404)
    await stream.endedWithin(5000)
    const shared = await anonymous().get(`/v1/link/${fresh}`)
    expect(shared.status).toBe(200)
    // Every view of the map names the new key at once (nothing serves a remembered copy).
    expect(shared.json.project.externalLink).toBe(fresh)
    expect((await bundle(owner.client, ids.project)).project.externalLink).toBe(fresh)
    const board = await owner.client.get(`/${owner.workspaceName}/projects/${ids.project}`)
    expect(board.text).toContain(`/link/${fresh}`)
    expect(board.text).not.toContain(`/link/${key}`)
  })

  it('keeps a stopped project stopped: the new key is not shared until sharing is on again', async () => {
    const { owner, ids } = await sharedBoard()
    await owner.client.post(`/v1/projects/${ids.project}/sharing`, { enabled: false })
    const made = await owner.client.post(`/v1/projects/${ids.project}/newlink`)
    expect(made.json.enabled).toBe(false)
    expect((await anonymous().get(`/v1/link/${made.json.externalLink}`)).status).toBe(404)
    await owner.client.post(`/v1/projects/${ids.project}/sharing`, { enabled: true })
    expect((await anonymous().get(`/v1/link/${made.json.externalLink}`)).status).toBe(200)
  })
})

describe('the project card’s Sharing section on the board', () => {
  const dialogPath = (owner: Awaited<ReturnType<typeof signUp>>, projectId: string) =>
    `/${owner.workspaceName}/projects/${projectId}/p/${projectId}`

  it('offers an OWNER Stop sharing, Share again and New link, which do what they say', async () => {
    const { owner, ids, key } = await sharedBoard()
    const page = await owner.client.get(dialogPath(owner, ids.project))
    expect(page.text).toContain('Anyone with the share link can view this project.')
    expect(page.text).toContain('Stop sharing')
    expect(page.text).toContain('New link')

    const stopped = await owner.client.post(dialogPath(owner, ids.project), form({ intent: 'stopSharing' }))
    expect(stopped.status).toBe(200)
    expect(stopped.text).toMatch(/role="status"[^>]*>Sharing stopped\. The share link no longer works\.</)
    expect((await anonymous().get(`/v1/link/${key}`)).status).toBe(404)
    const after = await owner.client.get(dialogPath(owner, ids.project))
    expect(after.text).toContain('This project is not shared.')
    expect(after.text).toContain('Share again')
    expect(after.text).not.toContain(`/link/${key}`)

    await owner.client.post(dialogPath(owner, ids.project), form({ intent: 'shareAgain' }))
    expect((await anonymous().get(`/v1/link/${key}`)).status).toBe(200)
    await owner.client.post(dialogPath(owner, ids.project), form({ intent: 'newLink' }))
    expect((await anonymous().get(`/v1/link/${key}`)).status).toBe(404)
    const fresh = (await bundle(owner.client, ids.project)).project.externalLink
    expect((await anonymous().get(`/v1/link/${fresh}`)).status).toBe(200)
  })

  it('shows an EDITOR the state without buttons, and refuses the form posted anyway', async () => {
    const { owner, ids, key } = await sharedBoard()
    const editor = await teammate(owner, 'EDITOR')
    const page = await editor.get(dialogPath(owner, ids.project))
    expect(page.status).toBe(200)
    expect(page.text).toContain('Anyone with the share link can view this project.')
    expect(page.text).toContain('Only an admin or owner can change sharing.')
    expect(page.text).not.toContain('Stop sharing')
    expect(page.text).not.toContain('New link')
    for (const intent of ['stopSharing', 'newLink']) {
      const refused = await editor.post(dialogPath(owner, ids.project), form({ intent }))
      expect(refused.text).toMatch(/role="alert"[^>]*>Only an admin or owner can change sharing\.</)
    }
    expect((await anonymous().get(`/v1/link/${key}`)).status).toBe(200)
    expect((await bundle(owner.client, ids.project)).project.externalLink).toBe(key)
  })

  it('says so when the workspace does not allow sharing, and offers nothing to press', async () => {
    const { owner, ids } = await sharedBoard()
    sql('update workspaces set allow_external_sharing = 0 where id = ?', owner.workspaceId)
    const page = await owner.client.get(dialogPath(owner, ids.project))
    expect(page.text).toContain('External sharing is off for this workspace.')
    expect(page.text).not.toContain('Stop sharing')
    expect(page.text).not.toContain('>Share link<')
  })
})

describe('the JSON export', () => {
  it('leaves out the project’s externalLink, from the API, the share link and the board’s menu', async () => {
    const { owner, ids, key } = await sharedBoard()
    const files = [
      await owner.client.get(`/v1/projects/${ids.project}/export`),
      await anonymous().get(`/v1/link/${key}/export`),
      await owner.client.get(`/${owner.workspaceName}/projects/${ids.project}/storymap.json`),
      await anonymous().get(`/link/${key}/storymap.json`),
    ]
    for (const file of files) {
      expect(file.status).toBe(200)
      expect(file.json.project).toMatchObject({ kind: 'project', id: ids.project })
      expect(file.json.project).not.toHaveProperty('externalLink')
      expect(file.text).not.toContain(key)
      expect(file.json.features.length).toBeGreaterThan(0)
    }
  })
})

describe('workspace settings: Allow external sharing', () => {
  it('an OWNER or ADMIN switches it with the page’s form; every share link follows', async () => {
    const { owner, key } = await sharedBoard()
    const path = `/${owner.workspaceName}/settings`
    const page = await owner.client.get(path)
    expect(page.text).toContain('Allow external sharing')
    expect(page.text).toMatch(/<input[^>]*name="allowExternalSharing"[^>]*checked=""/)

    // An unchecked box is absent from the form: that is "off".
    const off = await owner.client.post(path, form({ intent: 'externalSharing' }))
    expect(off.status).toBe(302)
    expect((await owner.client.get(off.headers.get('location')!)).text).toContain('Settings changed')
    expect((await anonymous().get(`/v1/link/${key}`)).status).toBe(404)
    expect((await owner.client.get(path)).text).not.toMatch(
      /<input[^>]*name="allowExternalSharing"[^>]*checked=""/,
    )

    const admin = await teammate(owner, 'ADMIN')
    const on = await admin.post(path, form({ intent: 'externalSharing', allowExternalSharing: 'on' }))
    expect(on.status).toBe(302)
    expect((await anonymous().get(`/v1/link/${key}`)).status).toBe(200)
  })

  it('an EDITOR sees the setting but cannot change it, not even by posting the form', async () => {
    const { owner, key } = await sharedBoard()
    const editor = await teammate(owner, 'EDITOR')
    const path = `/${owner.workspaceName}/settings`
    const page = await editor.get(path)
    expect(page.text).toContain('Allow external sharing')
    expect(page.text).toContain('Only an admin or owner can change sharing.')
    const refused = await editor.post(path, form({ intent: 'externalSharing' }))
    expect(refused.status).toBe(302)
    expect((await editor.get(refused.headers.get('location')!)).text).toContain(
      'Only an admin or owner can change sharing.',
    )
    expect((await anonymous().get(`/v1/link/${key}`)).status).toBe(200)
  })
})
