import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'

/** The trash's 30 days and the change log's pruning, in-process with a clock the test sets. */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'storymap-clock-'))
process.env.DATABASE_PATH = path.join(dir, 'clock.db')
process.env.APP_MODE = 'selfhosted'
process.env.BASE_URL = 'http://localhost:3000'

const { getDb, closeDatabase } = await import('~/lib/db/db.server')
// What follows every change (trash, webhooks, outboxes, e-mails), as the server registers it at start.
const { registerMapFollowers } = await import('../../server/map-followers')
registerMapFollowers()
const { accounts } = await import('~/lib/db/schema')
const { createWorkspace, getWorkspaceContextById } = await import('~/features/workspaces/workspace.server')
const { executeBoardCommand } = await import('~/features/board/board.server')
const { listProjectTrash, purgeExpiredTrash, restoreFromTrash } =
  await import('~/features/history/trash.server')
const { pruneChangeLog, projectVersion } = await import('~/features/map/change-log.server')

const uuid = () => crypto.randomUUID()
const DAY = 24 * 60 * 60 * 1000
let ctx: NonNullable<ReturnType<typeof getWorkspaceContextById>>

beforeAll(() => {
  const accountId = uuid()
  getDb()
    .insert(accounts)
    .values({ id: accountId, name: 'Clock', email: `c${Date.now()}@example.com`, passwordHash: 'x' })
    .run()
  ctx = getWorkspaceContextById(accountId, createWorkspace(accountId, `clock${Date.now()}`).id)!
})
afterAll(() => {
  closeDatabase()
  fs.rmSync(dir, { recursive: true, force: true })
})

function smallMap(now: Date) {
  const ids = { project: uuid(), workflow: uuid(), activity: uuid(), release: uuid(), feature: uuid() }
  executeBoardCommand(ctx, { type: 'project.create', id: ids.project, title: 'P' }, now)
  executeBoardCommand(
    ctx,
    { type: 'workflow.create', id: ids.workflow, projectId: ids.project, title: 'G' },
    now,
  )
  executeBoardCommand(
    ctx,
    { type: 'subworkflow.create', id: ids.activity, workflowId: ids.workflow, title: 'A' },
    now,
  )
  executeBoardCommand(
    ctx,
    { type: 'milestone.create', id: ids.release, projectId: ids.project, title: 'R' },
    now,
  )
  executeBoardCommand(
    ctx,
    {
      type: 'feature.create',
      id: ids.feature,
      milestoneId: ids.release,
      subWorkflowId: ids.activity,
      title: 'F',
    },
    now,
  )
  return ids
}

it('keeps a trash entry for 30 days, then purges it', () => {
  const deleted = new Date('2026-01-01T12:00:00.000Z')
  const ids = smallMap(deleted)
  executeBoardCommand(ctx, { type: 'card.delete', kind: 'feature', id: ids.feature }, deleted)
  expect(purgeExpiredTrash(new Date(deleted.getTime() + 29 * DAY))).toBe(0)
  expect(listProjectTrash(ctx, ids.project).items).toHaveLength(1)
  expect(purgeExpiredTrash(new Date(deleted.getTime() + 31 * DAY))).toBe(1)
  expect(listProjectTrash(ctx, ids.project).items).toHaveLength(0)
  expect(() => restoreFromTrash(ctx, ids.feature)).toThrow(/trash/)
})

it('prunes the log past 1,000 changes and a day, but keeps what the trash and undo stacks need', () => {
  const old = new Date('2026-02-01T00:00:00.000Z')
  const ids = smallMap(old)
  executeBoardCommand(ctx, { type: 'card.delete', kind: 'feature', id: ids.feature }, old)
  const trashed = projectVersion(ids.project)
  for (let i = 0; i < 1100; i++)
    executeBoardCommand(ctx, { type: 'card.rename', kind: 'milestone', id: ids.release, title: `R${i}` }, old)
  const count = () =>
    getDb()
      .$client.prepare('select count(*) from project_changes where project_id = ?')
      .pluck()
      .get(ids.project)
  expect(pruneChangeLog(new Date(old.getTime() + DAY / 2))).toBe(0)
  pruneChangeLog(new Date(old.getTime() + 2 * DAY))
  expect(count()).toBe(1001) // the last 1,000 and the delete the trash entry points at
  expect(restoreFromTrash(ctx, ids.feature)).toMatchObject({ id: ids.feature, title: 'F' })
  expect(trashed).toBeLessThan(projectVersion(ids.project) - 1000)
})
