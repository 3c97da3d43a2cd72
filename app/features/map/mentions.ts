/**
 * Mentions in comments (CONTRACT §12): stored as `@[member:{memberId}]`, shown as `@{current name}`
 * (`@someone` when the member is unknown, as on a public link).
 */
const MENTION = /@\[member:([A-Za-z0-9_-]{1,64})\]/g

export const mentionToken = (memberId: string) => `@[member:${memberId}]`

/** The member ids a text mentions, each once, in order. */
export function mentionedIds(text: string): string[] {
  return [...new Set([...text.matchAll(MENTION)].map((m) => m[1]))]
}

export type MentionPart = { text: string } | { memberId: string; name: string }

/** The text cut into plain runs and mentions, for rendering. */
export function splitMentions(text: string, nameOf: (memberId: string) => string | undefined): MentionPart[] {
  const parts: MentionPart[] = []
  let last = 0
  for (const m of text.matchAll(MENTION)) {
    if (m.index > last) parts.push({ text: text.slice(last, m.index) })
    parts.push({ memberId: m[1], name: nameOf(m[1]) ?? 'someone' })
    last = m.index + m[0].length
  }
  if (last < text.length) parts.push({ text: text.slice(last) })
  return parts
}

/** The text with every mention shown as `@Name`. */
export function renderMentions(text: string, nameOf: (memberId: string) => string | undefined): string {
  return splitMentions(text, nameOf)
    .map((p) => ('text' in p ? p.text : `@${p.name}`))
    .join('')
}

/**
 * While typing: the `@query` that ends at the caret (after a space or at the start), or null.
 * `start` is where the `@` is.
 */
export function mentionQueryAt(text: string, caret: number): { start: number; query: string } | null {
  const before = text.slice(0, caret)
  const m = /(^|\s)@([^\s@[\]]{0,40})$/.exec(before)
  if (!m) return null
  return { start: caret - m[2].length - 1, query: m[2] }
}

/** The members whose name starts a word with the query (case ignored), at most `limit`. */
export function filterMembers<T extends { name: string }>(
  members: readonly T[],
  query: string,
  limit = 8,
): T[] {
  const q = query.toLowerCase()
  return members
    .filter(
      (m) =>
        q === '' ||
        m.name
          .toLowerCase()
          .split(/\s+/)
          .some((w) => w.startsWith(q)) ||
        m.name.toLowerCase().startsWith(q),
    )
    .slice(0, limit)
}
