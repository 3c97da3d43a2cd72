import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addMember, bundle, makeBoard, send, uuid, writeCalls } from '../support/board'
import { Client, signUp } from '../support/client'
import { startServer, type RunningServer } from '../support/server'

/** CONTRACT §7 activity, undo and redo against the real built server. */
let server: RunningServer
beforeAll(async () => {
  server = await startServer()
})
afterAll(async () => {
  await server?.stop()
})

const withoutVersion = ({ version: _version, ...rest }: { version: number }) => rest

async function member(owner: Awaited<ReturnType<typeof signUp>>, level: 'VIEWER' | 'EDITOR' | 'ADMIN') {
  const user = await signUp(server.url)
  addMember(server.dbPath, owner.workspaceId, user.account.id, level)
  user.client.workspaceId = owner.workspaceId
  return user
}

describe('undo and redo', () => {
  it('for every change kind, undo gives back the exact previous map and redo the later one', async () => {
    const owner = await signUp(server.url)
    const names = writeCalls(await makeBoard(owner.client))
      .map((c) => c.name)
      .filter((n) => !['project create', 'project delete', 'allow external sharing'].includes(n))
    for (const name of names) {
      const ids = await makeBoard(owner.client)
      if (name === 'workflowpersona create')
        await owner.client.delete(`/v1/workflowpersonas/${ids.workflowPersona}`)
      const before = await bundle(owner.client, ids.project)
      expect(
        (
          await send(
            owner.client,
            writeCalls(ids).find((c) => c.name === name)!,
          )
        ).status,
        name,
      ).toBe(200)
      const after = await bundle(owner.client, ids.project)

      const undone = await owner.client.post(`/v1/projects/${ids.project}/undo`)
      expect(undone.status, `${name}: ${undone.text}`).toBe(200)
      expect(undone.json.version).toBe(after.version + 1)
      expect(undone.json.summary, name).toMatch(/^Undid: /)
      expect(withoutVersion(await bundle(owner.client, ids.project)), `undo ${name}`).toEqual(
        withoutVersion(before),
      )

      const redone = await owner.client.post(`/v1/projects/${ids.project}/redo`)
      expect(redone.status, `${name}: ${redone.text}`).toBe(200)
      expect(redone.json.summary, name).toMatch(/^Redid: /)
      expect(withoutVersion(await bundle(owner.client, ids.project)), `redo ${name}`).toEqual(
        withoutVersion(after),
      )
    }
  })

  it('undo of a move puts the card back in its cell at its place; undo of a delete brings back everything under it', async () => {
    const owner = await signUp(server.url)
    const ids = await makeBoard(owner.client)
    const c = owner.client
    const [second, third] = [uuid(), uuid()]
    for (const [id, title] of [
      [second, 'Second'],
      [third, 'Third'],
    ])
      await c.post(`/v1/features/${id}`, {
        milestoneId: ids.milestone,
        subWorkflowId: ids.subworkflow,
        title,
      })
    const otherRelease = uuid()
    await c.post(`/v1/milestones/${otherRelease}`, { projectId: ids.project, title: 'Later' })
    const start = await bundle(c, ids.project)
    await c.post(`/v1/features/${second}/move`, {
      toSubWorkflowId: ids.subworkflow,
      toMilestoneId: otherRelease,
      index: 0,
    })
    expect((await c.post(`/v1/projects/${ids.project}/undo`)).status).toBe(200)
    const back = await bundle(c, ids.project)
    const cell = (b: any) =>
      b.features.filter((f: any) => f.milestoneId === ids.milestone).map((f: any) => f.title)
    expect(cell(back)).toEqual(['Feature', 'Second', 'Third'])
    expect(withoutVersion(back)).toEqual(withoutVersion(start))

    await c.delete(`/v1/workflows/${ids.workflow}`)
    expect((await bundle(c, ids.project)).features).toHaveLength(0)
    expect((await c.post(`/v1/projects/${ids.project}/undo`)).json.summary).toBe(
      "Undid: Deleted goal 'Goal' (1 activity, 3 features)",
    )
    const restored = await bundle(c, ids.project)
    expect(withoutVersion(restored)).toEqual(withoutVersion(start))
    expect(restored.featureComments.map((x: any) => x.post)).toEqual(['Hello'])
    expect(restored.workflowPersonas).toHaveLength(1)
  })

  it('keeps a stack per member: each undoes their own change, redo goes after a new change, stacks survive a restart', async () => {
    const owner = await signUp(server.url)
    const bob = await member(owner, 'EDITOR')
    const ids = await makeBoard(owner.client)
    expect(await bob.client.post(`/v1/projects/${ids.project}/undo`)).toMatchObject({
      status: 409,
      json: { error: 'nothing_to_undo' },
    })
    expect((await bob.client.post(`/v1/projects/${ids.project}/redo`)).json.error).toBe('nothing_to_redo')
    await owner.client.post(`/v1/features/${ids.feature}/rename`, { title: 'By Ann' })
    await bob.client.post(`/v1/milestones/${ids.milestone}/rename`, { title: 'By Bob' })
    // Ann's undo takes back Ann's rename, not Bob's later one.
    expect((await owner.client.post(`/v1/projects/${ids.project}/undo`)).json.summary).toBe(
      "Undid: Renamed feature 'Feature' to 'By Ann'",
    )
    let b = await bundle(owner.client, ids.project)
    expect([b.features[0].title, b.milestones[0].title]).toEqual(['Feature', 'By Bob'])

    await server.stop()
    server = await startServer({}, { dir: server.dir })
    for (const user of [owner, bob]) {
      const moved = new Client(server.url, user.client.workspaceId)
      moved.cookies = user.client.cookies
      user.client = moved
    }
    expect((await owner.client.post(`/v1/projects/${ids.project}/redo`)).json.summary).toBe(
      "Redid: Renamed feature 'Feature' to 'By Ann'",
    )
    expect((await owner.client.post(`/v1/projects/${ids.project}/undo`)).status).toBe(200)
    await owner.client.post(`/v1/features/${ids.feature}/color`, { color: 'RED' })
    expect((await owner.client.post(`/v1/projects/${ids.project}/redo`)).json.error).toBe('nothing_to_redo')
    expect((await bob.client.post(`/v1/projects/${ids.project}/undo`)).json.summary).toBe(
      "Undid: Renamed release 'Release' to 'By Bob'",
    )
    b = await bundle(owner.client, ids.project)
    expect([b.features[0].title, b.features[0].color, b.milestones[0].title]).toEqual([
      'Feature',
      'RED',
      'Release',
    ])
    // Undo goes back through the stack, newest first, several steps.
    expect((await owner.client.post(`/v1/projects/${ids.project}/undo`)).json.summary).toBe(
      "Undid: Colored feature 'Feature' red",
    )
    expect((await owner.client.post(`/v1/projects/${ids.project}/undo`)).json.summary).toMatch(
      /^Undid: Added persona 'Pat'/,
    )
  })

  it('refuses with undo_conflict once, changing nothing, when someone else has since changed what it would touch; the next undo reaches the change before', async () => {
    const owner = await signUp(server.url)
    const bob = await member(owner, 'EDITOR')
    const ids = await makeBoard(owner.client)
    const undo = () => owner.client.post(`/v1/projects/${ids.project}/undo`)
    await owner.client.post(`/v1/features/${ids.feature}/color`, { color: 'RED' })
    await owner.client.post(`/v1/features/${ids.feature}/rename`, { title: 'Mine' })
    await bob.client.post(`/v1/features/${ids.feature}/rename`, { title: 'Bob’s' })
    const before = await bundle(owner.client, ids.project)
    expect(await undo()).toMatchObject({ status: 409, json: { error: 'undo_conflict' } })
    expect(await bundle(owner.client, ids.project)).toEqual(before)
    // The refused step is dropped: the next undo takes back the colour, not the rename again.
    expect((await undo()).json.summary).toBe("Undid: Colored feature 'Feature' red")
    const uncoloured = await bundle(owner.client, ids.project)
    expect([uncoloured.features[0].title, uncoloured.features[0].color]).toEqual(['Bob’s', ''])

    // An activity of mine that Bob has put a feature under cannot be un-created; it is dropped too.
    const activity = uuid()
    await owner.client.post(`/v1/subworkflows/${activity}`, { workflowId: ids.workflow, title: 'New' })
    await bob.client.post(`/v1/features/${uuid()}`, {
      milestoneId: ids.milestone,
      subWorkflowId: activity,
      title: 'Bob’s card',
    })
    const now = await bundle(owner.client, ids.project)
    expect((await undo()).json.error).toBe('undo_conflict')
    expect(await bundle(owner.client, ids.project)).toEqual(now)
    expect((await undo()).json.summary).toMatch(/^Undid: Added persona 'Pat'/)
  })

  it('a member deletes an activity, another restores it from the trash: the first one’s undo says why once, then undoes their change before it, also after a reload', async () => {
    const owner = await signUp(server.url)
    const bea = await member(owner, 'EDITOR')
    const ids = await makeBoard(owner.client)
    const checkout = uuid()
    await bea.client.post(`/v1/subworkflows/${checkout}`, { workflowId: ids.workflow, title: 'Checkout' })
    await bea.client.post(`/v1/milestones/${ids.milestone}/rename`, { title: 'MVP' })
    await bea.client.delete(`/v1/subworkflows/${checkout}`)
    expect((await owner.client.post(`/v1/trash/${checkout}/restore`)).status).toBe(200)
    const history = () => bea.client.get(`/v1/projects/${ids.project}/activity?limit=1`)
    const undo = () => bea.client.post(`/v1/projects/${ids.project}/undo`)
    const refused = await undo()
    expect(refused).toMatchObject({ status: 409, json: { error: 'undo_conflict' } })
    const versionAfterRefusal = (await history()).json.items[0].version
    expect((await undo()).json.summary).toBe("Undid: Renamed release 'Release' to 'MVP'")
    expect((await history()).json.items[0].version).toBe(versionAfterRefusal + 1)
    // Her remaining step is the activity she added (restored by Ann, so it is there to remove).
    expect((await undo()).json.summary).toBe("Undid: Added activity 'Checkout'")
    expect((await undo()).json.error).toBe('nothing_to_undo')
  })

  it('redo of a move into a list whose place another card took since lands next to it, not on a server error', async () => {
    const owner = await signUp(server.url)
    const bob = await member(owner, 'EDITOR')
    const ids = await makeBoard(owner.client)
    const [first, second, moved, added] = [uuid(), uuid(), uuid(), uuid()]
    for (const [id, title] of [
      [first, 'First goal'],
      [second, 'Second goal'],
    ])
      await owner.client.post(`/v1/workflows/${id}`, { projectId: ids.project, title })
    // Alone in either list, the activity keeps its rank when it moves: only its goal changes.
    await bob.client.post(`/v1/subworkflows/${moved}`, { workflowId: second, title: 'Moved' })
    await bob.client.post(`/v1/subworkflows/${moved}/move`, { toWorkflowId: first, index: 0 })
    expect((await bob.client.post(`/v1/projects/${ids.project}/undo`)).status).toBe(200)
    await owner.client.post(`/v1/subworkflows/${added}`, { workflowId: first, title: 'Added' })

    const redone = await bob.client.post(`/v1/projects/${ids.project}/redo`)
    expect(redone.status, redone.text).toBe(200)
    const map = await bundle(owner.client, ids.project)
    const underFirst = map.subWorkflows.filter((s: any) => s.workflowId === first)
    expect(underFirst.map((s: any) => s.title).sort()).toEqual(['Added', 'Moved'])
    expect(underFirst[0].rank).not.toBe(underFirst[1].rank)
  })

  it('undoing the creation of a tag takes it off the features another member put it on', async () => {
    const owner = await signUp(server.url)
    const bob = await member(owner, 'EDITOR')
    const ids = await makeBoard(owner.client)
    const tag = uuid()
    await owner.client.post(`/v1/tags/${tag}`, { projectId: ids.project, name: 'Urgent', color: 'RED' })
    await bob.client.post(`/v1/features/${ids.feature}/tags`, { tagIds: [tag] })
    expect((await owner.client.post(`/v1/projects/${ids.project}/undo`)).json.summary).toBe(
      "Undid: Added tag 'Urgent'",
    )
    const map = await bundle(owner.client, ids.project)
    expect(map.tags).toEqual([])
    expect(map.features[0].tagIds).toEqual([])
    // Bob's tagging was changed by that undo: his undo says so once and brings back no tag.
    expect((await bob.client.post(`/v1/projects/${ids.project}/undo`)).json.error).toBe('undo_conflict')
    expect((await bundle(owner.client, ids.project)).features[0].tagIds).toEqual([])
  })

  it('creating, importing or duplicating a project is not a step of the board’s undo: the project stays', async () => {
    const owner = await signUp(server.url)
    const project = uuid()
    await owner.client.post(`/v1/projects/${project}`, { title: 'Fresh' })
    expect(await owner.client.post(`/v1/projects/${project}/undo`)).toMatchObject({
      status: 409,
      json: { error: 'nothing_to_undo' },
    })
    expect((await bundle(owner.client, project)).project.title).toBe('Fresh')

    const copy = uuid()
    expect(
      (await owner.client.post(`/v1/projects/${project}/duplicate`, { id: copy, title: 'Copy' })).status,
    ).toBe(200)
    expect((await owner.client.post(`/v1/projects/${copy}/undo`)).json.error).toBe('nothing_to_undo')
    const goal = uuid()
    await owner.client.post(`/v1/workflows/${goal}`, { projectId: copy, title: 'Goal' })
    expect((await owner.client.post(`/v1/projects/${copy}/undo`)).json.summary).toBe(
      "Undid: Added goal 'Goal'",
    )
    expect((await owner.client.post(`/v1/projects/${copy}/undo`)).json.error).toBe('nothing_to_undo')
    expect((await bundle(owner.client, copy)).project.title).toBe('Copy')

    // A project deleted and restored from the workspace trash: neither is an undo step either.
    await owner.client.delete(`/v1/projects/${project}`)
    const restored = await owner.client.post(`/v1/trash/${project}/restore`)
    expect(restored.status).toBe(200)
    expect((await owner.client.post(`/v1/projects/${project}/undo`)).json.error).toBe('nothing_to_undo')
    expect((await owner.client.post(`/v1/projects/${project}/redo`)).json.error).toBe('nothing_to_redo')
  })

  it('a refused redo is dropped too: the next redo re-applies the undo before it', async () => {
    const owner = await signUp(server.url)
    const bob = await member(owner, 'EDITOR')
    const ids = await makeBoard(owner.client)
    const c = owner.client
    await c.post(`/v1/milestones/${ids.milestone}/rename`, { title: 'MVP' })
    await c.post(`/v1/features/${ids.feature}/rename`, { title: 'Pay' })
    await c.post(`/v1/projects/${ids.project}/undo`)
    await c.post(`/v1/projects/${ids.project}/undo`)
    // Bob renames the release after my undo of its rename: redoing it would overwrite his.
    await bob.client.post(`/v1/milestones/${ids.milestone}/rename`, { title: 'Bob’s release' })
    expect((await c.post(`/v1/projects/${ids.project}/redo`)).json.error).toBe('undo_conflict')
    expect((await c.post(`/v1/projects/${ids.project}/redo`)).json.summary).toBe(
      "Redid: Renamed feature 'Feature' to 'Pay'",
    )
  })
})

describe('activity', () => {
  it('lists changes newest first with one sentence each, paged with before and next', async () => {
    const owner = await signUp(server.url, { name: 'Ann' })
    const ids = await makeBoard(owner.client)
    const c = owner.client
    await c.post(`/v1/features/${ids.feature}/rename`, { title: 'Pay' })
    await c.post(`/v1/features/${ids.feature}/rename`, { title: 'Pay by card' })
    const mvp = uuid()
    await c.post(`/v1/milestones/${mvp}`, { projectId: ids.project, title: 'MVP' })
    await c.post(`/v1/features/${ids.feature}/move`, {
      toSubWorkflowId: ids.subworkflow,
      toMilestoneId: mvp,
      index: 0,
    })
    const checkout = uuid()
    await c.post(`/v1/subworkflows/${checkout}`, { workflowId: ids.workflow, title: 'Checkout' })
    for (const t of ['A', 'B', 'C'])
      await c.post(`/v1/features/${uuid()}`, { milestoneId: mvp, subWorkflowId: checkout, title: t })
    await c.delete(`/v1/subworkflows/${checkout}`)
    await c.post(`/v1/projects/${ids.project}/undo`)

    const page = await c.get(`/v1/projects/${ids.project}/activity?limit=4`)
    expect(page.status).toBe(200)
    expect(page.json.items.map((i: any) => i.summary)).toEqual([
      "Undid: Deleted activity 'Checkout' (3 features)",
      "Deleted activity 'Checkout' (3 features)",
      "Added feature 'C'",
      "Added feature 'B'",
    ])
    expect(page.json.items[0]).toMatchObject({ by: { name: 'Ann' } })
    expect(page.json.items[0].by.memberId).toMatch(/^[0-9a-f-]{36}$/)
    expect(Date.parse(page.json.items[0].at)).not.toBeNaN()
    const versions = page.json.items.map((i: any) => i.version)
    expect(versions).toEqual([...versions].sort((a: number, b: number) => b - a))
    expect(page.json.next).toBe(versions[3])

    const all = []
    let next: number | null = null
    do {
      const res: any = await c.get(
        `/v1/projects/${ids.project}/activity?limit=5${next ? `&before=${next}` : ''}`,
      )
      all.push(...res.json.items)
      next = res.json.next
    } while (next !== null)
    const sentences = all.map((i) => i.summary)
    expect(sentences).toContain("Renamed feature 'Pay' to 'Pay by card'")
    expect(sentences).toContain("Moved feature 'Pay by card' to release 'MVP'")
    expect(sentences.at(-1)).toBe("Created project 'Map'")
    expect(all.map((i) => i.version)).toEqual(Array.from({ length: all.length }, (_, i) => all.length - i))

    expect((await c.get(`/v1/projects/${ids.project}/activity?limit=0`)).json.error).toBe('limit_invalid')
    expect((await c.get(`/v1/projects/${ids.project}/activity?limit=101`)).status).toBe(400)
    expect((await c.get(`/v1/projects/${ids.project}/activity?before=x`)).json.error).toBe('before_invalid')
  })
})

describe('who may', () => {
  it('VIEWERs and inactive plans read activity but cannot undo or redo; another workspace is 404; no session 401', async () => {
    const owner = await signUp(server.url)
    const ids = await makeBoard(owner.client)
    const viewer = await member(owner, 'VIEWER')
    expect((await viewer.client.get(`/v1/projects/${ids.project}/activity`)).status).toBe(200)
    for (const op of ['undo', 'redo'])
      expect(await viewer.client.post(`/v1/projects/${ids.project}/${op}`)).toMatchObject({
        status: 403,
        json: { error: 'level_too_low' },
      })
    const stranger = await signUp(server.url)
    expect((await stranger.client.get(`/v1/projects/${ids.project}/activity`)).status).toBe(404)
    expect((await stranger.client.post(`/v1/projects/${ids.project}/undo`)).status).toBe(404)
    expect(
      (await new Client(server.url, owner.workspaceId).get(`/v1/projects/${ids.project}/activity`)).status,
    ).toBe(401)
  })

  it('a persona PUT replaces it and needs a name; a refused PUT changes nothing', async () => {
    const owner = await signUp(server.url)
    const ids = await makeBoard(owner.client)
    const before = await bundle(owner.client, ids.project)
    for (const body of [undefined, {}, { role: 'Only a role' }, { name: '' }, { name: '   ' }]) {
      const res = await owner.client.put(`/v1/personas/${ids.persona}`, body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.json.error).toBe('name_invalid')
    }
    expect(await bundle(owner.client, ids.project)).toEqual(before)
    const put = await owner.client.put(`/v1/personas/${ids.persona}`, { name: 'Sam' })
    expect(put.json).toMatchObject({ name: 'Sam', avatar: 'avatar00', role: '', description: '' })
  })
})
