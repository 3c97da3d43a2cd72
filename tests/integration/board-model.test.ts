import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, expect, it, vi } from 'vitest'

/**
 * The model layer in-process, without HTTP: how the board page's action will call it, and
 * the promise that a map loads with a fixed number of queries whatever its size.
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'storymap-model-'))
process.env.DATABASE_PATH = path.join(dir, 'model.db')
process.env.APP_MODE = 'selfhosted'
// vitest sets BASE_URL to '/' (vite's base path); the app wants an absolute address.
process.env.BASE_URL = 'http://localhost:3000'

const { getDb, closeDatabase } = await import('~/lib/db/db.server')
// What follows every change (trash, webhooks, outboxes, e-mails), as the server registers it at start.
const { registerMapFollowers } = await import('../../server/map-followers')
registerMapFollowers()
const { accounts } = await import('~/lib/db/schema')
const { createWorkspace, getWorkspaceContextById } = await import('~/features/workspaces/workspace.server')
const { executeBoardCommand } = await import('~/features/board/board.server')
const { getProjectBundle } = await import('~/features/map/project-bundle.server')

const uuid = () => crypto.randomUUID()
let ctx: NonNullable<ReturnType<typeof getWorkspaceContextById>>

beforeAll(() => {
  const accountId = uuid()
  getDb()
    .insert(accounts)
    .values({ id: accountId, name: 'Model Tester', email: `m${Date.now()}@example.com`, passwordHash: 'x' })
    .run()
  const ws = createWorkspace(accountId, `model${Date.now()}`)
  ctx = getWorkspaceContextById(accountId, ws.id)!
})
afterAll(() => {
  closeDatabase()
  fs.rmSync(dir, { recursive: true, force: true })
})

/** Statements run, counted where better-sqlite3 runs them: most are prepared once per connection. */
function countQueries<T>(fn: () => T): { result: T; queries: number } {
  const statementPrototype = Object.getPrototypeOf(getDb().$client.prepare('select 1'))
  const spies = (['all', 'get', 'run', 'iterate'] as const).map((method) =>
    vi.spyOn(statementPrototype, method),
  )
  try {
    const result = fn()
    return { result, queries: spies.reduce((sum, spy) => sum + spy.mock.calls.length, 0) }
  } finally {
    for (const spy of spies) spy.mockRestore()
  }
}

it('returns typed entities and loads a map with one query per table whatever its size', () => {
  const project = executeBoardCommand(ctx, { type: 'project.create', id: uuid(), title: 'Model map' })
  expect(project.kind).toBe('project')
  // Statements prepared once per connection are made by the first load of any map.
  getProjectBundle(
    ctx.workspace.id,
    executeBoardCommand(ctx, { type: 'project.create', id: uuid(), title: 'Warm-up' }).id,
  )
  const small = countQueries(() => getProjectBundle(ctx.workspace.id, project.id)).queries

  const workflow = executeBoardCommand(ctx, {
    type: 'workflow.create',
    id: uuid(),
    projectId: project.id,
    title: 'Goal',
  })
  expect(workflow.color).toBe('WHITE')
  for (let r = 0; r < 3; r++) {
    const milestone = executeBoardCommand(ctx, {
      type: 'milestone.create',
      id: uuid(),
      projectId: project.id,
      title: `R${r}`,
    })
    for (let a = 0; a < 3; a++) {
      const sw = executeBoardCommand(ctx, {
        type: 'subworkflow.create',
        id: uuid(),
        workflowId: workflow.id,
        title: `A${r}${a}`,
      })
      for (let f = 0; f < 4; f++) {
        const feature = executeBoardCommand(ctx, {
          type: 'feature.create',
          id: uuid(),
          milestoneId: milestone.id,
          subWorkflowId: sw.id,
          title: 'F',
        })
        executeBoardCommand(ctx, { type: 'comment.create', id: uuid(), featureId: feature.id, post: 'Note' })
      }
    }
  }
  executeBoardCommand(ctx, {
    type: 'persona.create',
    id: uuid(),
    projectId: project.id,
    avatar: 'avatar00',
    name: 'P',
    role: '',
    description: '',
  })

  const large = countQueries(() => getProjectBundle(ctx.workspace.id, project.id))
  expect(large.result.features).toHaveLength(36)
  expect(large.result.featureComments).toHaveLength(36)
  expect(large.queries).toBe(small)
  // One per child table (eight), the project's row, its GitHub link and its tracker link, the data
  // version, the map's version (once, for the cache key and the render), and begin/commit of the read.
  expect(large.queries).toBeGreaterThanOrEqual(8)
  expect(large.queries).toBeLessThanOrEqual(15)
})

it('refuses a viewer and an inactive plan in the model itself, changing nothing', () => {
  const project = executeBoardCommand(ctx, { type: 'project.create', id: uuid(), title: 'Guarded' })
  const asViewer = { ...ctx, level: 'VIEWER' as const }
  expect(() =>
    executeBoardCommand(asViewer, { type: 'card.rename', kind: 'project', id: project.id, title: 'No' }),
  ).toThrow(expect.objectContaining({ code: 'level_too_low' }))
  const expired = { ...ctx, planActive: false }
  expect(() =>
    executeBoardCommand(expired, { type: 'card.delete', kind: 'project', id: project.id }),
  ).toThrow(expect.objectContaining({ code: 'plan_inactive' }))
  expect(getProjectBundle(ctx.workspace.id, project.id).project.title).toBe('Guarded')
})
