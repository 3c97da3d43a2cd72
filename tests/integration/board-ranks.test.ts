import { afterAll, beforeAll, expect, it } from 'vitest'
import { bundle, makeBoard, uuid } from '../support/board'
import { signUp, type Client } from '../support/client'
import { startServer, type RunningServer } from '../support/server'

let server: RunningServer
let c: Client
let workspaceName: string
beforeAll(async () => {
  server = await startServer()
  const owner = await signUp(server.url)
  c = owner.client
  workspaceName = owner.workspaceName
})
afterAll(async () => {
  await server?.stop()
})

const idsOf = (list: { id: string }[]) => list.map((x) => x.id)
const cell = (b: any, subWorkflowId: string, milestoneId: string) =>
  b.features.filter((f: any) => f.subWorkflowId === subWorkflowId && f.milestoneId === milestoneId)

it('20 concurrent appends and 20 concurrent moves into one list all succeed with distinct ranks', async () => {
  const ids = await makeBoard(c)
  const other = uuid()
  await c.post(`/v1/milestones/${other}`, { projectId: ids.project, title: 'Other release' })

  const appended = Array.from({ length: 20 }, () => uuid())
  const created = await Promise.all(
    appended.map((id, i) =>
      c.post(`/v1/features/${id}`, { milestoneId: other, subWorkflowId: ids.subworkflow, title: `F${i}` }),
    ),
  )
  expect(created.map((r) => r.status)).toEqual(Array(20).fill(200))
  let b = await bundle(c, ids.project)
  let list = cell(b, ids.subworkflow, other)
  expect(list).toHaveLength(20)
  expect(new Set(list.map((f: any) => f.rank)).size).toBe(20)
  // Each append landed after every card that existed when it ran: the ranks returned are the list's order.
  const byRank = [...created].sort((x, y) => (x.json.rank < y.json.rank ? -1 : 1)).map((r) => r.json.id)
  expect(idsOf(list)).toEqual(byRank)

  // Twenty concurrent moves of the appended cards to the top of the original cell.
  const moved = await Promise.all(
    appended.map((id) =>
      c.post(`/v1/features/${id}/move`, {
        toSubWorkflowId: ids.subworkflow,
        toMilestoneId: ids.milestone,
        index: 0,
      }),
    ),
  )
  expect(moved.map((r) => r.status)).toEqual(Array(20).fill(200))
  b = await bundle(c, ids.project)
  list = cell(b, ids.subworkflow, ids.milestone)
  expect(list).toHaveLength(21)
  expect(new Set(list.map((f: any) => f.rank)).size).toBe(21)
  expect(cell(b, ids.subworkflow, other)).toHaveLength(0)
  // The card that was there first is last; each move went to the top when it ran.
  expect(list[20].id).toBe(ids.feature)
  expect(idsOf(list.slice(0, 20)).sort()).toEqual([...appended].sort())
})

it('concurrent moves to explicit positions keep every requested relative order', async () => {
  const ids = await makeBoard(c)
  const goals = [ids.workflow]
  for (let i = 0; i < 5; i++) {
    const id = uuid()
    await c.post(`/v1/workflows/${id}`, { projectId: ids.project, title: `G${i}` })
    goals.push(id)
  }
  // Everyone moves to the end concurrently: all succeed, six distinct ranks.
  const res = await Promise.all(goals.map((id) => c.post(`/v1/workflows/${id}/move`, { index: 99 })))
  expect(res.every((r) => r.status === 200)).toBe(true)
  const b = await bundle(c, ids.project)
  expect(new Set(b.workflows.map((w: any) => w.rank)).size).toBe(6)
})

it('moving cards into the same gap 50 times forces rebalances and keeps the requested order', async () => {
  const ids = await makeBoard(c)
  const cards = [ids.milestone]
  for (let i = 0; i < 3; i++) {
    const id = uuid()
    await c.post(`/v1/milestones/${id}`, { projectId: ids.project, title: `R${i}` })
    cards.push(id)
  }
  let expected = [...cards]
  const ranksBefore = (await bundle(c, ids.project)).milestones.map((m: any) => m.rank)
  let rebalanced = false
  for (let i = 0; i < 50; i++) {
    // Take the card just after position 1 and put it at position 1: always the gap after the first card.
    const id = expected[2]
    const res = await c.post(`/v1/milestones/${id}/move`, { index: 1 })
    expect(res.status).toBe(200)
    expected = expected.filter((x) => x !== id)
    expected.splice(1, 0, id)
    const b = await bundle(c, ids.project)
    expect(idsOf(b.milestones)).toEqual(expected)
    expect(new Set(b.milestones.map((m: any) => m.rank)).size).toBe(4)
    if (b.milestones[0].rank !== ranksBefore[0]) rebalanced = true
  }
  expect(rebalanced).toBe(true)
  const b = await bundle(c, ids.project)
  expect(b.milestones.every((m: any) => /^[a-z]+$/.test(m.rank) && m.rank.length <= 8)).toBe(true)
})

it('sub-workflows and features move to the requested index, counting closed siblings', async () => {
  const ids = await makeBoard(c)
  const acts = [ids.subworkflow]
  for (let i = 0; i < 3; i++) {
    const id = uuid()
    await c.post(`/v1/subworkflows/${id}`, { workflowId: ids.workflow, title: `A${i}` })
    acts.push(id)
  }
  await c.post(`/v1/subworkflows/${acts[1]}/close`)
  // Move the last to index 1: before the closed one, which still counts.
  await c.post(`/v1/subworkflows/${acts[3]}/move`, { toWorkflowId: ids.workflow, index: 1 })
  const b = await bundle(c, ids.project)
  expect(idsOf(b.subWorkflows)).toEqual([acts[0], acts[3], acts[1], acts[2]])
})

/** A cell of four cards P1–P4 (besides the board's own feature, moved out first), and a card X in another release. */
async function cellOfFour() {
  const ids = await makeBoard(c)
  const other = uuid()
  await c.post(`/v1/milestones/${other}`, { projectId: ids.project, title: 'Later' })
  await c.post(`/v1/features/${ids.feature}/move`, {
    toSubWorkflowId: ids.subworkflow,
    toMilestoneId: other,
    index: 0,
  })
  const p = [uuid(), uuid(), uuid(), uuid()]
  for (const [i, id] of p.entries())
    await c.post(`/v1/features/${id}`, {
      milestoneId: ids.milestone,
      subWorkflowId: ids.subworkflow,
      title: `P${i + 1}`,
    })
  const x = uuid()
  await c.post(`/v1/features/${x}`, { milestoneId: other, subWorkflowId: ids.subworkflow, title: 'X' })
  const order = async () => idsOf(cell(await bundle(c, ids.project), ids.subworkflow, ids.milestone))
  const commands = `/${workspaceName}/projects/${ids.project}/commands`
  return { ids, other, p, x, order, commands }
}

it('a drop beside a card lands beside it when a colleague moved a card out of the cell mid-drag (issue 43)', async () => {
  const { ids, other, p, x, order, commands } = await cellOfFour()
  // The person sees P1 P2 P3 P4 and drops X above P3: index 2, after P2, before P3.
  const drop = {
    type: 'feature.move',
    id: x,
    toSubWorkflowId: ids.subworkflow,
    toMilestoneId: ids.milestone,
    index: 2,
    afterId: p[1],
    beforeId: p[2],
  }
  // Meanwhile a colleague took P1 out of the cell: index 2 alone would put X below P3.
  await c.post(`/v1/features/${p[0]}/move`, {
    toSubWorkflowId: ids.subworkflow,
    toMilestoneId: other,
    index: 0,
  })
  const res = await c.post(commands, drop)
  expect(res.status, res.text).toBe(200)
  expect(await order()).toEqual([p[1], x, p[2], p[3]])

  // The card it was dropped after is gone too: it goes before the other neighbour.
  await c.post(`/v1/features/${x}/move`, { toSubWorkflowId: ids.subworkflow, toMilestoneId: other, index: 0 })
  await c.post(`/v1/features/${p[1]}/move`, {
    toSubWorkflowId: ids.subworkflow,
    toMilestoneId: other,
    index: 0,
  })
  expect((await c.post(commands, drop)).status).toBe(200)
  expect(await order()).toEqual([x, p[2], p[3]])
  // Both neighbours gone: the index decides (past the end: last).
  await c.post(`/v1/features/${x}/move`, { toSubWorkflowId: ids.subworkflow, toMilestoneId: other, index: 0 })
  await c.post(`/v1/features/${p[2]}/move`, {
    toSubWorkflowId: ids.subworkflow,
    toMilestoneId: other,
    index: 0,
  })
  expect((await c.post(commands, drop)).status).toBe(200)
  expect(await order()).toEqual([p[3], x])
})

it('/v1 moves take a neighbour too, and keep taking an index alone; a place that names nothing is refused', async () => {
  const { ids, p, x, order } = await cellOfFour()
  const to = { toSubWorkflowId: ids.subworkflow, toMilestoneId: ids.milestone }
  expect((await c.post(`/v1/features/${x}/move`, { ...to, beforeId: p[1] })).status).toBe(200)
  expect(await order()).toEqual([p[0], x, p[1], p[2], p[3]])
  expect((await c.post(`/v1/features/${x}/move`, { ...to, afterId: p[3] })).status).toBe(200)
  expect(await order()).toEqual([p[0], p[1], p[2], p[3], x])
  expect((await c.post(`/v1/features/${x}/move`, { ...to, index: 0 })).status).toBe(200)
  expect(await order()).toEqual([x, p[0], p[1], p[2], p[3]])

  // A neighbour from another list, with no index to fall back on: refused, nothing moves.
  const refused = await c.post(`/v1/features/${x}/move`, { ...to, afterId: ids.feature })
  expect(refused).toMatchObject({ status: 400, json: { error: 'after_id_invalid' } })
  expect((await c.post(`/v1/features/${x}/move`, { ...to, beforeId: uuid() })).json.error).toBe(
    'before_id_invalid',
  )
  expect((await c.post(`/v1/features/${x}/move`, to)).json).toMatchObject({ error: 'index_invalid' })
  expect(await order()).toEqual([x, p[0], p[1], p[2], p[3]])

  // Goals, releases and activities take the same place.
  const goal = uuid()
  await c.post(`/v1/workflows/${goal}`, { projectId: ids.project, title: 'Second goal' })
  expect((await c.post(`/v1/workflows/${goal}/move`, { beforeId: ids.workflow })).status).toBe(200)
  expect(idsOf((await bundle(c, ids.project)).workflows)).toEqual([goal, ids.workflow])
})
