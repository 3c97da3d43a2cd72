import { afterAll, beforeAll, expect, it } from 'vitest'
import { bundle, makeBoard, uuid } from '../support/board'
import { signUp, type Client } from '../support/client'
import { startServer, type RunningServer } from '../support/server'

let server: RunningServer
let c: Client
beforeAll(async () => {
  server = await startServer()
  c = (await signUp(server.url)).client
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
