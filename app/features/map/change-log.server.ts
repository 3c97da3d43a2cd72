import { getDb, type Db } from '~/lib/db/db.server'
import {
  changeEventJson,
  foldTouchedRows,
  groupByProject,
  priorStateJson,
  type ChangeContext,
} from './change-events'
import { drainCapture } from './capture.server'
import { isBoardUndoStep, summarizeChange, type SummaryEntry } from '~/features/map/activity-sentence'
import { nameOf } from './entity-names.server'
import { refuse } from '~/lib/errors'

export type { ChangeContext }

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]

/** At least this many changes per project, and every change of the last day, stay in the log. */
export const KEEP_CHANGES = 1000
export const KEEP_MS = 24 * 60 * 60 * 1000

const statements = (db: Db) => ({
  version: db.$client
    .prepare('select coalesce(max(version), 0) from project_changes where project_id = ?')
    .pluck(),
  insert: db.$client.prepare(
    `insert into project_changes (project_id, version, workspace_id, at, member_id, member_name, via, command, event, prior, summary, undo_of, redo_of, undo_skipped)
     values (@projectId, @version, @workspaceId, @at, @memberId, @memberName, @via, @command, @event, @prior, @summary, @undoOf, @redoOf, @undoSkipped)`,
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

/** What a logged change may say beyond its command (undo, redo, restore, sharing use these). */
export type ChangeOptions = {
  /** The activity sentence, instead of the one summarizeChange makes from the command. */
  summary?: (entries: SummaryEntry[]) => string
  undoOf?: number
  redoOf?: number
  /** Deleted cards go to the trash (deletes always do; undo and redo say so). */
  trash?: boolean
  /**
   * A change to a map that the bundle does not show (sharing switched, a link renewed, a trash
   * entry purged): logged with this sentence even though no entity changed, as one event with no
   * changes, and never an undo step.
   */
  notice?: {
    projectId: string
    summary: string
    /** The entity kind webhooks file it under (CONTRACT §10 types). */ kind: string
  }
  /** Called inside the transaction with each change appended. */
  afterAppend?: (appended: AppendedChange) => void
}
/** A change as committed: what the live hub sends and what workers wake for. */
export type CommittedChange = { projectId: string; version: number; event: string; projectDeleted: boolean }

export type AppendedChange = {
  projectId: string
  version: number
  summary: string
  entries: SummaryEntry[]
  /** The §6 event's JSON text. */
  event: string
  /** Whether the change is a notice (nothing the bundle shows changed). */
  notice: boolean
}

const parse = (json: string | null) => (json === null ? null : JSON.parse(json))

/**
 * Inside the door's transaction, once the write has run: folds what it touched into one numbered
 * change per project (normally one), with what every entity became and what it was, and appends
 * it. Refuses (rolling the write back) when anything touched belongs to another workspace.
 */
export function appendChanges(
  db: Db,
  ctx: ChangeContext,
  command: { type: string } & Record<string, unknown>,
  options: ChangeOptions,
  follow: (appended: AppendedChange) => void,
): CommittedChange[] {
  const touched = foldTouchedRows(drainCapture(db.$client))
  const groups = groupByProject(touched)
  if (options.notice && !groups.has(options.notice.projectId)) groups.set(options.notice.projectId, [])
  const published: CommittedChange[] = []
  const s = sql()
  const commandJson = JSON.stringify(command)
  for (const [projectId, changes] of groups) {
    const version = (s.version.get(projectId) as number) + 1
    const entries: SummaryEntry[] = changes.map((c) => ({
      kind: c.kind,
      id: c.id,
      before: parse(c.before),
      after: parse(c.after),
    }))
    for (const { before, after } of entries) {
      const workspaceId = (after ?? before)?.workspaceId
      if (workspaceId !== undefined && workspaceId !== ctx.workspaceId)
        throw refuse.notFound('Not found.', 'not_found')
    }
    // A notice's own sentence, whether or not a column it changed shows (a renewed key does not).
    const notice = options.notice?.projectId === projectId
    const summary = notice
      ? options.notice!.summary
      : options.summary
        ? options.summary(entries)
        : summarizeChange(command, entries, nameOf)
    const event = changeEventJson(version, ctx.at, ctx, changes, summary)
    s.insert.run({
      projectId,
      version,
      workspaceId: ctx.workspaceId,
      at: ctx.at,
      memberId: ctx.memberId,
      memberName: ctx.name,
      via: ctx.via ?? null,
      command: commandJson,
      event,
      prior: priorStateJson(changes),
      summary,
      undoOf: options.undoOf ?? null,
      redoOf: options.redoOf ?? null,
      undoSkipped: !notice && isBoardUndoStep(entries) ? 0 : 1,
    })
    const appended = { projectId, version, summary, entries, event, notice }
    follow(appended)
    options.afterAppend?.(appended)
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
  return {
    kind: 'events',
    events: s.since.all(projectId, since, MAX_REPLAY) as { version: number; event: string }[],
  }
}

/** Every member's last this many changes on a project stay too: their undo stack (CONTRACT §7). */
export const KEEP_PER_MEMBER = 100

/**
 * Drops changes that are beyond the last KEEP_CHANGES of their project, beyond their member's
 * last KEEP_PER_MEMBER there, older than a day, and not holding what a trash entry would
 * restore; and a day-old log of a project that is gone and not in the trash. Returns how many rows went.
 */
export function pruneChangeLog(now = new Date()): number {
  const cutoff = new Date(now.getTime() - KEEP_MS).toISOString()
  const client = getDb().$client
  const old = client
    .prepare(
      `delete from project_changes where rowid in (
         select rowid from (
           select rowid, project_id, version, at,
             row_number() over (partition by project_id order by version desc) as from_newest,
             row_number() over (partition by project_id, member_id order by version desc) as of_member
           from project_changes
         ) as ranked
         where at < @cutoff and from_newest > @keep and of_member > @perMember
           and not exists (select 1 from trash where trash.project_id = ranked.project_id and trash.version = ranked.version)
       )`,
    )
    .run({ cutoff, keep: KEEP_CHANGES, perMember: KEEP_PER_MEMBER }).changes
  const orphaned = client
    .prepare(
      `delete from project_changes where at < ? and project_id not in (select id from projects)
         and project_id not in (select project_id from trash where kind = 'project')`,
    )
    .run(cutoff).changes
  return old + orphaned
}

export type { Tx as ChangeTx }
