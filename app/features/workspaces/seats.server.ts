import { and, eq, gte } from 'drizzle-orm'
import type { Db } from '~/lib/db/db.server'
import { invites, members, subscriptions } from '~/lib/db/schema'
import { refuse } from '~/lib/errors'
import { getEnv } from '~/lib/env.server'
import { canEditLevel, type Level } from '~/features/map/permissions'
import { editorCount, seatLimit, seatRefusal } from '~/features/map/plan'

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]

/** Members whose level can edit (SPEC §5: the plan's editors). */
export function countEditors(db: Tx | Db, workspaceId: string): number {
  const levels = db
    .select({ level: members.level })
    .from(members)
    .where(eq(members.workspaceId, workspaceId))
    .all()
    .map((m) => m.level)
  return editorCount(levels)
}

function pendingEditorInvites(db: Tx | Db, workspaceId: string, now: Date): number {
  return db
    .select({ level: invites.level })
    .from(invites)
    .where(and(eq(invites.workspaceId, workspaceId), gte(invites.expiresAt, now.toISOString())))
    .all()
    .filter((i) => canEditLevel(i.level)).length
}

/**
 * Refuses (403 seats_full) when a change would need more editors than the paid plan covers.
 * Pending invites at an editing level hold a seat, so accepting one never overshoots.
 */
export function assertEditorSeat(
  db: Tx | Db,
  workspaceId: string,
  change: { from: Level | null; to: Level; countPendingInvites: boolean },
  now = new Date(),
) {
  const sub = db.select().from(subscriptions).where(eq(subscriptions.workspaceId, workspaceId)).get()
  const limit = sub ? seatLimit(sub, getEnv().APP_MODE) : null
  const adding = Number(canEditLevel(change.to)) - Number(change.from !== null && canEditLevel(change.from))
  if (limit === null || adding <= 0) return // no seats to count: self-hosted, a trial, or no new editor
  const held =
    countEditors(db, workspaceId) +
    (change.countPendingInvites ? pendingEditorInvites(db, workspaceId, now) : 0)
  const refusal = seatRefusal(limit, held, adding)
  if (refusal) throw refuse.forbidden(refusal, 'seats_full')
}
