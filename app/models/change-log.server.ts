import { drainCapture, setCapturing } from '~/db/change-capture.server'
import { getDb, type Db } from '~/db/db.server'
import {
  changeEventJson,
  foldTouchedRows,
  groupByProject,
  priorStateJson,
  type ChangeAuthor,
} from '~/domain/change-events'
import { publishChanges, type PublishedChange } from '~/utils/live-hub.server'

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]

/** Who makes a logged write, in which workspace, and when (ISO time). */
export type ChangeContext = ChangeAuthor & { workspaceId: string; at: string }

/** At least this many changes per project, and every change of the last day, stay in the log. */
export const KEEP_CHANGES = 1000
export const KEEP_MS = 24 * 60 * 60 * 1000

const statements = (db: Db) => ({
  version: db.$client
    .prepare('select coalesce(max(version), 0) from project_changes where project_id = ?')
    .pluck(),
  insert: db.$client.prepare(
    `insert into project_changes (project_id, version, workspace_id, at, member_id, member_name, command, event, prior)
     values (@projectId, @version, @workspaceId, @at, @memberId, @memberName, @command, @event, @prior)`,
  ),
  oldest: db.$client.prepare('select min(version) from project_changes where project_id = ?').pluck(),
  since: db.$client.prepare(
    'select version, event from project_changes where project_id = ? and version > ? order by version limit ?',
  ),
})
let cached: { client: Db['$client']; s: ReturnType<typeof statements> } | undefined
function sql() {
  const db = getDb()
  if (cached?.client !== db.$client) cached = { client: db.$client, s: statements(db) }
  return cached.s
}

/** The project's version: how many changes have been committed to it (0 for none). */
export function projectVersion(projectId: string): number {
  return sql().version.get(projectId) as number
}

/**
 * Runs one write in a transaction and appends, in that same transaction, one numbered change
 * per project it touched (normally one) with what every touched entity became and what it was.
 * A write that changes nothing visible appends nothing. Once committed, the changes go to the
 * live streams. A refusal thrown by `write` rolls everything back, log included.
 */
export function writeWithChangeLog<T>(ctx: ChangeContext, command: unknown, write: (tx: Tx) => T): T {
  const db = getDb()
  let published: PublishedChange[] = []
  const result = db.transaction((tx) => {
    setCapturing(true)
    let value: T
    try {
      value = write(tx)
    } finally {
      setCapturing(false)
    }
    published = appendChanges(db, ctx, command)
    return value
  })
  if (published.length > 0) publishChanges(published)
  return result
}

/**
 * Inside a logged write: runs `write` without capturing what it touches. Only for filling a
 * project created in the same write (import, duplicate): nobody can be watching it yet, and its
 * first change (the project itself) is enough to find it; thousands of cards need no event.
 */
export function withoutCapture<T>(write: () => T): T {
  setCapturing(false)
  try {
    return write()
  } finally {
    setCapturing(true)
  }
}

function appendChanges(db: Db, ctx: ChangeContext, command: unknown): PublishedChange[] {
  const touched = foldTouchedRows(drainCapture(db.$client))
  const published: PublishedChange[] = []
  const s = sql()
  const commandJson = JSON.stringify(command)
  for (const [projectId, changes] of groupByProject(touched)) {
    const version = (s.version.get(projectId) as number) + 1
    const event = changeEventJson(version, ctx.at, ctx, changes)
    s.insert.run({
      projectId,
      version,
      workspaceId: ctx.workspaceId,
      at: ctx.at,
      memberId: ctx.memberId,
      memberName: ctx.name,
      command: commandJson,
      event,
      prior: priorStateJson(changes),
    })
    const projectDeleted = changes.some((c) => c.kind === 'project' && c.after === null)
    published.push({ projectId, version, event, projectDeleted })
  }
  return published
}

export type Replay = { kind: 'events'; events: { version: number; event: string }[] } | { kind: 'reset' }

/** Changes after `since` are replayed while they are all still kept and not too many; else the client reloads. */
export const MAX_REPLAY = 2000

/**
 * What a client at version `since` needs to reach `current`: the events in between, or a reset
 * when some of them are no longer kept (or `since` is from another life of the database).
 */
export function replaySince(projectId: string, since: number, current: number): Replay {
  if (since === current) return { kind: 'events', events: [] }
  if (since > current || current - since > MAX_REPLAY) return { kind: 'reset' }
  const s = sql()
  const oldest = s.oldest.get(projectId) as number | null
  if (oldest === null || oldest > since + 1) return { kind: 'reset' }
  return { kind: 'events', events: s.since.all(projectId, since, MAX_REPLAY) as { version: number; event: string }[] }
}

/**
 * Drops changes that are both beyond the last KEEP_CHANGES of their project and older than a
 * day, and a day-old log of a project that is gone. Returns how many rows went.
 */
export function pruneChangeLog(now = new Date()): number {
  const cutoff = new Date(now.getTime() - KEEP_MS).toISOString()
  const client = getDb().$client
  const old = client
    .prepare(
      `delete from project_changes where at < ? and version <= (
         select max(version) from project_changes latest where latest.project_id = project_changes.project_id
       ) - ?`,
    )
    .run(cutoff, KEEP_CHANGES).changes
  // A deleted project has no stream left to replay to.
  const orphaned = client
    .prepare('delete from project_changes where at < ? and project_id not in (select id from projects)')
    .run(cutoff).changes
  return old + orphaned
}

export type { Tx as ChangeTx }
