import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

/**
 * The one door (issue 32, ADR 25), in-process: the map tables refuse every write made outside
 * executeChange; the door authorizes from the one permission table, logs and refuses a change
 * that touches another workspace's map, rolling everything back.
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'storymap-door-'))
process.env.DATABASE_PATH = path.join(dir, 'door.db')
process.env.APP_MODE = 'selfhosted'
process.env.BASE_URL = 'http://localhost:3000'

const { getDb, closeDatabase } = await import('~/lib/db/db.server')
// What follows every change (trash, webhooks, outboxes, e-mails), as the server registers it at start.
const { registerMapFollowers } = await import('../../server/map-followers')
registerMapFollowers()
const { accounts } = await import('~/lib/db/schema')
const { installMapDoor, OUTSIDE_THE_DOOR } = await import('~/features/map/capture.server')
const { executeChange } = await import('~/features/map/door.server')
const { projectVersion } = await import('~/features/map/change-log.server')
const { createWorkspace, getWorkspaceContextById } = await import('~/features/workspaces/workspace.server')
const { executeBoardCommand } = await import('~/features/board/board.server')
const { getProjectBundle } = await import('~/features/map/project-bundle.server')

type Ctx = NonNullable<ReturnType<typeof getWorkspaceContextById>>
const uuid = () => crypto.randomUUID()

function member(name: string): Ctx {
  const accountId = uuid()
  getDb()
    .insert(accounts)
    .values({ id: accountId, name, email: `${uuid()}@example.com`, passwordHash: 'x' })
    .run()
  const ws = createWorkspace(accountId, `w${uuid().slice(0, 12)}`)
  return getWorkspaceContextById(accountId, ws.id)!
}

let ana: Ctx
let bea: Ctx
let anaProject: string
let beaProject: string

beforeAll(() => {
  installMapDoor(getDb().$client)
  ana = member('Ana')
  bea = member('Bea')
  anaProject = executeBoardCommand(ana, { type: 'project.create', id: uuid(), title: 'Ana’s map' }).id
  beaProject = executeBoardCommand(bea, { type: 'project.create', id: uuid(), title: 'Bea’s map' }).id
})
afterAll(() => {
  closeDatabase()
  fs.rmSync(dir, { recursive: true, force: true })
})

const client = () => getDb().$client

describe('the map tables take writes only through the door', () => {
  const outside: [string, () => unknown][] = [
    [
      'an insert',
      () =>
        client()
          .prepare(
            "insert into milestones (id, workspace_id, project_id, rank, title, created_by, created_by_name, last_modified_by_name) values (?, ?, ?, 'm', 'Sneaked in', 'x', 'x', 'x')",
          )
          .run(uuid(), ana.workspace.id, anaProject),
    ],
    [
      'an update',
      () =>
        client().prepare("update projects set title = 'Renamed behind the log' where id = ?").run(anaProject),
    ],
    ['a delete', () => client().prepare('delete from projects where id = ?').run(anaProject)],
    [
      'a write in a transaction of its own',
      () =>
        getDb().transaction(() =>
          client().prepare("update projects set description = 'x' where id = ?").run(anaProject),
        ),
    ],
  ]
  for (const [what, write] of outside) {
    it(`refuses ${what} made beside it, and nothing changes`, () => {
      const before = JSON.stringify(getProjectBundle(ana.workspace.id, anaProject))
      expect(write).toThrow(OUTSIDE_THE_DOOR)
      expect(JSON.stringify(getProjectBundle(ana.workspace.id, anaProject))).toBe(before)
    })
  }

  it('lets the same write through the door, logged as one change', () => {
    const version = projectVersion(anaProject)
    executeChange(ana, {
      action: 'edit',
      command: { type: 'card.description', kind: 'project', id: anaProject, description: 'Through the door' },
      write: () =>
        client()
          .prepare('update projects set description = ? where id = ?')
          .run('Through the door', anaProject),
    })
    expect(projectVersion(anaProject)).toBe(version + 1)
    expect(getProjectBundle(ana.workspace.id, anaProject).project.description).toBe('Through the door')
    // …and shuts behind it.
    expect(() =>
      client().prepare("update projects set description = 'after' where id = ?").run(anaProject),
    ).toThrow(OUTSIDE_THE_DOOR)
  })
})

describe('the door', () => {
  it('refuses a caller the permission table does not allow, before the write runs', () => {
    let ran = false
    const viewer = { ...ana, level: 'VIEWER' as const }
    expect(() =>
      executeChange(viewer, { action: 'edit', command: { type: 'noop' }, write: () => (ran = true) }),
    ).toThrow('Your member level does not allow editing.')
    const ended = { ...ana, planActive: false }
    expect(() =>
      executeChange(ended, { action: 'edit', command: { type: 'noop' }, write: () => (ran = true) }),
    ).toThrow('The workspace plan is inactive')
    const editor = { ...ana, level: 'EDITOR' as const }
    expect(() =>
      executeChange(editor, {
        action: 'manageSharing',
        command: { type: 'noop' },
        write: () => (ran = true),
      }),
    ).toThrow('Only an admin or owner can change sharing.')
    expect(ran).toBe(false)
  })

  it('refuses, rolling back, a change that touches another workspace’s map', () => {
    const version = projectVersion(beaProject)
    const before = JSON.stringify(getProjectBundle(bea.workspace.id, beaProject))
    expect(() =>
      executeChange(ana, {
        action: 'edit',
        command: { type: 'card.rename', kind: 'project', id: beaProject, title: 'Taken over' },
        write: () =>
          client().prepare("update projects set title = 'Taken over' where id = ?").run(beaProject),
      }),
    ).toThrow(expect.objectContaining({ kind: 'not_found' }))
    expect(JSON.stringify(getProjectBundle(bea.workspace.id, beaProject))).toBe(before)
    expect(projectVersion(beaProject)).toBe(version)
  })

  it('rolls back the write and its log when the write fails half-way', () => {
    const version = projectVersion(anaProject)
    const before = JSON.stringify(getProjectBundle(ana.workspace.id, anaProject))
    expect(() =>
      executeChange(ana, {
        action: 'edit',
        command: { type: 'card.rename', kind: 'project', id: anaProject, title: 'Half' },
        write: () => {
          client().prepare("update projects set title = 'Half' where id = ?").run(anaProject)
          throw new Error('the second half failed')
        },
      }),
    ).toThrow('the second half failed')
    expect(JSON.stringify(getProjectBundle(ana.workspace.id, anaProject))).toBe(before)
    expect(projectVersion(anaProject)).toBe(version)
  })
})
