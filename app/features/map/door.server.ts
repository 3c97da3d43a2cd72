import { getDb } from '~/lib/db/db.server'
import { refuse } from '~/lib/errors'
import { timedWrite } from '~/lib/metrics.server'
import { mapRefusal, type Actor, type MapAction } from '~/features/map/permissions'
import { openDoor, setCapturing, shutDoor } from './capture.server'
import type { ChangeContext } from './change-events'
import { appendChanges, type ChangeOptions, type ChangeTx } from './change-log.server'
import {
  followCommitted,
  followInTransaction,
  followMapsGone,
  type CommittedChange,
} from './listeners.server'

/**
 * The one door every change to a map goes through (ADR 25): the board's commands from the page,
 * `/v1` and MCP; import and duplicate; undo, redo, restore and purge; sharing; GitHub sync.
 *
 *   authorize (the permission table: level × plan × action)
 *   → one transaction: the write, and its change-log entry (version + 1) with what it touched,
 *     and in the same transaction its listeners' part (trash, outbox rows: listeners.server.ts)
 *   → commit → the listeners' after-commit part (§6 streams; the outbox workers are woken)
 *
 * With METRICS_TOKEN set, each transaction's time goes to `storymap_sqlite_write_seconds`.
 *
 * The map tables refuse any write made outside it (capture.server.ts), so a new way in that
 * forgot this door fails at once instead of skipping the check, the log or the event.
 */

/** Who asks for a change: a member of the map's workspace (a session, a token, GitHub as the linking member). */
export type ChangeActor = Actor & {
  workspace: { id: string }
  member: { id: string }
  account: { name: string }
  /** The token (or integration) the change came through, shown as `{name} via {via}`. */
  via?: string | null
}

export type ChangeRequest<T> = {
  /** The row of the permission table this change needs. */
  action: MapAction
  /** What the log keeps as the command; its type names the activity line unless `log.summary` does. */
  command: { type: string } & Record<string, unknown>
  write: (tx: ChangeTx) => T
  log?: ChangeOptions
  at?: Date
}

/** The author of a change as the log keeps it. */
export const changeContext = (actor: ChangeActor, at = new Date()): ChangeContext => ({
  workspaceId: actor.workspace.id,
  memberId: actor.member.id,
  name: actor.account.name,
  via: actor.via,
  at: at.toISOString(),
})

/** Refuses (403) a caller the permission table does not allow `action`. */
export function authorize(actor: Actor, action: MapAction) {
  const refusal = mapRefusal(actor, action)
  if (refusal) throw refuse.forbidden(refusal.message, refusal.code)
}

/**
 * Authorizes, then runs `write` and logs it as one change in one transaction, then publishes
 * it. A refusal thrown anywhere inside rolls everything back, log included. A write that changes
 * nothing the bundle shows appends nothing (unless `log.notice` says what it was).
 *
 * The transaction takes the write lock when it begins (IMMEDIATE): one that began by reading and
 * then wrote failed with SQLITE_BUSY_SNAPSHOT ("database is locked", no wait helps) whenever
 * another connection committed in between (a page thread renewing a session, a script).
 */
export function executeChange<T>(actor: ChangeActor, request: ChangeRequest<T>): T {
  authorize(actor, request.action)
  const db = getDb()
  const by = changeContext(actor, request.at)
  let published: CommittedChange[] = []
  const result = timedWrite('change', () =>
    db.transaction(
      (tx) => {
        openDoor(db.$client, true)
        let value: T
        try {
          value = request.write(tx)
        } finally {
          setCapturing(db.$client, false)
        }
        try {
          published = appendChanges(db, by, request.command, request.log ?? {}, (appended) =>
            followInTransaction(appended, { by, command: request.command, log: request.log ?? {} }),
          )
        } finally {
          shutDoor(db.$client)
        }
        return value
      },
      { behavior: 'immediate' },
    ),
  )
  if (published.length > 0) followCommitted(published)
  return result
}

/**
 * Inside executeChange's write: runs `write` without recording what it touches. Only for filling
 * a project created in the same change (import, duplicate): nobody can be watching it yet, and
 * its first change (the project itself) is enough to find it; thousands of cards need no event.
 */
export function withoutCapture<T>(write: () => T): T {
  const client = getDb().$client
  setCapturing(client, false)
  try {
    return write()
  } finally {
    setCapturing(client, true)
  }
}

/**
 * Deleting whole workspaces (their owner deletes one, or an account goes with the workspaces it
 * alone was in): `choose` runs first in the transaction (it checks who may, and may write other
 * tables), and answers which workspaces go. Their maps go with them, unlogged (nobody is left to
 * read the log) and unpublished, and every open stream of those maps ends at once.
 */
export function deleteWorkspaces(choose: (tx: ChangeTx) => readonly string[]): void {
  const db = getDb()
  let projectIds: string[] = []
  timedWrite('workspace_delete', () =>
    db.transaction(
      (tx) => {
        const workspaceIds = choose(tx)
        if (workspaceIds.length === 0) return
        const marks = workspaceIds.map(() => '?').join(', ')
        projectIds = db.$client
          .prepare(`select id from projects where workspace_id in (${marks})`)
          .pluck()
          .all(...workspaceIds) as string[]
        openDoor(db.$client, false)
        try {
          db.$client.prepare(`delete from workspaces where id in (${marks})`).run(...workspaceIds)
        } finally {
          shutDoor(db.$client)
        }
      },
      { behavior: 'immediate' },
    ),
  )
  if (projectIds.length > 0) followMapsGone(projectIds)
}
