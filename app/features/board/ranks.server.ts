import { asc, eq, type SQL } from 'drizzle-orm'
import { refuse } from '~/lib/errors'
import { placeInList, placeOfMove, type MovePlace } from '../map/rank'
import type { CommonCardTable, Tx } from '../map/entities.server'

/**
 * The rank a card gets at its place in the list selected by `scope`: an index, or beside a
 * neighbour read here, in the caller's transaction, from the list as it is now (see
 * app/features/map/rank.ts). When no rank fits it rewrites every sibling's rank first.
 * `cardId` may be a card being created (not in the table yet) or one being moved (from this list
 * or another); it is left out of the siblings. A place naming no card of the list and no index
 * is refused (`after_id_invalid` / `before_id_invalid`).
 */
export function rankAt(
  tx: Tx,
  table: CommonCardTable,
  scope: SQL,
  cardId: string,
  place: number | MovePlace,
): string {
  const siblings = tx
    .select({ id: table.id, rank: table.rank })
    .from(table)
    .where(scope)
    .orderBy(asc(table.rank))
    .all()
    .filter((s) => s.id !== cardId)
  const index =
    typeof place === 'number'
      ? place
      : placeOfMove(
          siblings.map((s) => s.id),
          place,
        )
  if (index === null) {
    const field = typeof place !== 'number' && place.afterId !== undefined ? 'afterId' : 'beforeId'
    throw refuse.invalid(
      field === 'afterId' ? 'after_id_invalid' : 'before_id_invalid',
      `${field} is not a card of the list the card moves to.`,
      field,
    )
  }
  const placed = placeInList(
    siblings.map((s) => s.rank),
    index,
  )
  if (placed.rebalanced) {
    // The unique (parent, rank) index forbids swapping ranks in place: park every row of the
    // list (and the moved card) on a temporary rank that no real rank can equal ('~' sorts after
    // a–z and ids are unique), then write the fresh sequence.
    const ids = [...siblings.map((s) => s.id), cardId]
    for (const id of ids)
      tx.update(table)
        .set({ rank: `~${id}` })
        .where(eq(table.id, id))
        .run()
    siblings.forEach((s, i) => {
      tx.update(table).set({ rank: placed.rebalanced[i] }).where(eq(table.id, s.id)).run()
    })
    // A card being moved stays parked on its temporary rank until the caller writes the new one.
  }
  return placed.rank
}

/** The rank after the last card of the list (a new card). */
export function rankAtEnd(tx: Tx, table: CommonCardTable, scope: SQL, cardId: string): string {
  return rankAt(tx, table, scope, cardId, Number.MAX_SAFE_INTEGER)
}
