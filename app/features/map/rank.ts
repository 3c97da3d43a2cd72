/**
 * Ranks order the cards of one list (SPEC §3): lowercase strings a–z compared as plain strings.
 *
 * A rank reads as a base-26 fraction 0.d1d2d3… (a = 0 … z = 25). Generated ranks never end in
 * 'a', so string order and numeric order agree and there is always room before any rank.
 *
 * Lists: features are ordered within their (release × activity) cell, sub-workflows within their
 * goal, goals and releases within their project.
 *
 * Move index: `index` is the card's final zero-based position in the destination list, counting
 * EVERY sibling in that list — closed ones included — and excluding the moved card itself. A board
 * that hides closed cards must translate its visible drop position into this index
 * (moveIndexFromVisible below). An index past the end means "last".
 *
 * Neighbours: a move may say instead where the card goes beside a card of that list, `afterId`
 * (right after it) or `beforeId` (right before it); the first of them still in the list wins, and
 * `index` is the fallback (placeOfMove below). The list the server holds may differ from the one
 * the mover saw (a colleague moved a card out of it meanwhile): a neighbour keeps the drop where
 * the person made it, an index would land one place off.
 *
 * When no rank of at most MAX_RANK_LENGTH characters fits between two neighbours, rankBetween
 * answers null and the caller rebalances the whole list (rebalanceRanks) in the same transaction.
 */
export const MAX_RANK_LENGTH = 8
const BASE = 26n
const A = 'a'.charCodeAt(0)

export function isRank(value: unknown): value is string {
  return typeof value === 'string' && /^[a-z]*[b-z]$/.test(value)
}

/** The rank scaled to an integer of `length` base-26 digits (truncated when longer). */
function scaled(rank: string, length: number): bigint {
  let n = 0n
  for (let i = 0; i < length; i++) {
    const digit = i < rank.length ? BigInt(rank.charCodeAt(i) - A) : 0n
    n = n * BASE + digit
  }
  return n
}

/** True when `rank` has digits beyond `length` that are not all 'a' (so its scaled value was truncated). */
function truncatedAbove(rank: string, length: number): boolean {
  return /[b-z]/.test(rank.slice(length))
}

function toRank(n: bigint, length: number): string {
  const chars: string[] = []
  for (let i = 0; i < length; i++) {
    chars.push(String.fromCharCode(A + Number(n % BASE)))
    n /= BASE
  }
  return chars.reverse().join('').replace(/a+$/, '')
}

/**
 * The shortest rank strictly between `before` and `after` (null = open end), or null when none
 * of at most MAX_RANK_LENGTH characters exists. Appends (after = null) take the smallest step so
 * a list can grow long before ranks lengthen; prepends take the largest; inserts take the middle.
 */
export function rankBetween(before: string | null, after: string | null): string | null {
  if (before !== null && after !== null && before >= after)
    throw new Error(`rankBetween: ${before} >= ${after}`)
  for (let length = 1; length <= MAX_RANK_LENGTH; length++) {
    const top = BASE ** BigInt(length)
    // Candidates n (as n / 26^length) with before < n < after.
    const low = before === null ? 1n : scaled(before, length) + 1n
    const high =
      after === null
        ? top - 1n
        : truncatedAbove(after, length)
          ? scaled(after, length)
          : scaled(after, length) - 1n
    if (low > high) continue
    const n =
      after === null && before !== null ? low : before === null && after !== null ? high : (low + high) / 2n
    return toRank(n, length)
  }
  return null
}

/** `count` fresh, evenly spread ranks, in order, with room (at least 26 slots) between neighbours. */
export function rebalanceRanks(count: number): string[] {
  if (count <= 0) return []
  let length = 1
  while (BASE ** BigInt(length) < BigInt(count + 1) * BASE) length++
  const top = BASE ** BigInt(length)
  const ranks: string[] = []
  for (let i = 1; i <= count; i++) ranks.push(toRank((top * BigInt(i)) / BigInt(count + 1), length))
  return ranks
}

/**
 * Where a card lands in a list (already sorted by rank, without the moved card): its new rank,
 * or, when no rank fits, a fresh rank for every sibling and the card (`rebalanced`, in order).
 */
export function placeInList(
  siblingRanks: readonly string[],
  index: number,
): { rank: string; rebalanced: null } | { rank: string; rebalanced: string[] } {
  const at = Math.max(0, Math.min(Math.trunc(index), siblingRanks.length))
  const rank = rankBetween(siblingRanks[at - 1] ?? null, siblingRanks[at] ?? null)
  if (rank !== null) return { rank, rebalanced: null }
  const fresh = rebalanceRanks(siblingRanks.length + 1)
  const moved = fresh[at]
  return { rank: moved, rebalanced: fresh.filter((_, i) => i !== at) }
}

/**
 * For a board that hides some cards (closed ones): turns a drop position in the VISIBLE list into
 * the move `index` the server expects. `siblings` is the full destination list in rank order,
 * without the moved card. The card goes right after the visible card it was dropped below
 * (or first, when dropped at the top).
 */
export function moveIndexFromVisible<T>(
  siblings: readonly T[],
  visibleIndex: number,
  isVisible: (card: T) => boolean,
): number {
  if (visibleIndex <= 0) return 0
  let seen = 0
  for (let i = 0; i < siblings.length; i++) {
    if (!isVisible(siblings[i])) continue
    seen++
    if (seen === visibleIndex) return i + 1
  }
  return siblings.length
}

/**
 * Fresh ranks for a list made of several sibling groups (features by cell, activities by goal):
 * `groups[i]` names the group of item i; each group gets evenly spread ranks in list order.
 */
export function ranksByGroup(groups: readonly (string | number)[]): string[] {
  const sizes = new Map<string | number, number>()
  for (const group of groups) sizes.set(group, (sizes.get(group) ?? 0) + 1)
  const pools = new Map([...sizes].map(([group, size]) => [group, rebalanceRanks(size)]))
  const used = new Map<string | number, number>()
  return groups.map((group) => {
    const i = used.get(group) ?? 0
    used.set(group, i + 1)
    return pools.get(group)![i]
  })
}

/** Where a move puts its card: beside a neighbour, or at an index (see the top of this file). */
export type MovePlace = { index?: number; afterId?: string; beforeId?: string }

/**
 * The index a move's place comes to in `siblingIds` (the destination list in rank order, without
 * the moved card): right after `afterId` when it is in the list, else right before `beforeId`
 * when it is, else `index`; null when none of them applies.
 */
export function placeOfMove(siblingIds: readonly string[], place: MovePlace): number | null {
  const after = place.afterId === undefined ? -1 : siblingIds.indexOf(place.afterId)
  if (after !== -1) return after + 1
  const before = place.beforeId === undefined ? -1 : siblingIds.indexOf(place.beforeId)
  if (before !== -1) return before
  return place.index ?? null
}

/**
 * The place a board sends for a drop at `index` of `siblings` (the full destination list in rank
 * order, without the moved card): the cards on either side, and the index for when both are gone.
 */
export function placeBetween(siblings: readonly { id: string }[], index: number): MovePlace {
  const at = Math.max(0, Math.min(index, siblings.length))
  return {
    index: at,
    ...(at > 0 ? { afterId: siblings[at - 1].id } : {}),
    ...(at < siblings.length ? { beforeId: siblings[at].id } : {}),
  }
}
