/**
 * A comment while it is written (CONTRACT §12): the box shows each mention as `@Name`, and the
 * draft remembers where each picked mention sits, so the stored text gets `@[member:{id}]` back.
 * A mention whose name is edited becomes plain text; one that is moved along keeps its member.
 */
import { mentionQueryAt, mentionToken, splitMentions } from '../map/mentions'

/** A mention in the text on screen: `@Name` from `start` up to `end`. */
export type PlacedMention = { start: number; end: number; memberId: string }

export type MentionDraft = { text: string; mentions: readonly PlacedMention[] }

type NameOf = (memberId: string) => string | undefined

/**
 * The text on screen for a stored text: each token as `@Name` (`@someone` when unknown). Line
 * breaks become `\n`, as a textarea's value has them, so the box's text and the draft agree.
 */
export function draftFromStored(stored: string, nameOf: NameOf): MentionDraft {
  let text = ''
  const mentions: PlacedMention[] = []
  for (const part of splitMentions(stored.replace(/\r\n?/g, '\n'), nameOf)) {
    if ('text' in part) {
      text += part.text
    } else {
      const shown = `@${part.name}`
      mentions.push({ start: text.length, end: text.length + shown.length, memberId: part.memberId })
      text += shown
    }
  }
  return { text, mentions }
}

/** The text to store: each mention's `@Name` back as its token. */
export function storedFromDraft(draft: MentionDraft): string {
  let stored = ''
  let last = 0
  for (const m of draft.mentions) {
    stored += draft.text.slice(last, m.start) + mentionToken(m.memberId)
    last = m.end
  }
  return stored + draft.text.slice(last)
}

/**
 * Puts `insert` in place of `from`–`to`: mentions before stay, mentions after move along, and a
 * mention the change touches inside (or covers) is no longer one.
 */
function replaceRange(draft: MentionDraft, from: number, to: number, insert: MentionDraft): MentionDraft {
  const shift = insert.text.length - (to - from)
  const before = draft.mentions.filter((m) => m.end <= from)
  const after = draft.mentions
    .filter((m) => m.start >= to)
    .map((m) => ({ ...m, start: m.start + shift, end: m.end + shift }))
  const inserted = insert.mentions.map((m) => ({ ...m, start: m.start + from, end: m.end + from }))
  return {
    text: draft.text.slice(0, from) + insert.text + draft.text.slice(to),
    mentions: [...before, ...inserted, ...after],
  }
}

/**
 * The draft after the textarea's text became `next` with the caret at `caret` (typing, deleting,
 * pasting, cutting, undoing). The change is found by the text kept on both sides, the part after
 * the caret first, so a letter typed right after `@Bob` counts as after the name even when it is
 * a `b`. Tokens in pasted text become mentions; the caret answered is where it goes then.
 */
export function editDraft(draft: MentionDraft, next: string, caret: number, nameOf: NameOf) {
  const prev = draft.text
  let suffix = 0
  const maxSuffix = Math.min(prev.length, next.length - caret)
  while (suffix < maxSuffix && prev[prev.length - 1 - suffix] === next[next.length - 1 - suffix]) suffix++
  let prefix = 0
  const maxPrefix = Math.min(prev.length, next.length) - suffix
  while (prefix < maxPrefix && prev[prefix] === next[prefix]) prefix++

  const typed = next.slice(prefix, next.length - suffix)
  const insert = draftFromStored(typed, nameOf)
  const grown = insert.text.length - typed.length
  const typedEnd = prefix + typed.length
  const newCaret = caret >= typedEnd ? caret + grown : caret > prefix ? prefix + insert.text.length : caret
  return { draft: replaceRange(draft, prefix, prev.length - suffix, insert), caret: newCaret }
}

/**
 * Picks a member for the `@query` from `start` to `caret`: `@Name` and one space (none added
 * when a space follows already); the caret goes after the space.
 */
export function pickMention(
  draft: MentionDraft,
  start: number,
  caret: number,
  member: { id: string; name: string },
) {
  const shown = `@${member.name}`
  const spaced = draft.text[caret] === ' ' ? shown : `${shown} `
  const insert = { text: spaced, mentions: [{ start: 0, end: shown.length, memberId: member.id }] }
  return { draft: replaceRange(draft, start, caret, insert), caret: start + shown.length + 1 }
}

/**
 * Backspace right after a mention (`backward`) or Delete right before one (`forward`) removes
 * it whole; null when no mention touches the caret on that side.
 */
export function removeMentionAt(draft: MentionDraft, caret: number, direction: 'backward' | 'forward') {
  const hit = draft.mentions.find((m) => (direction === 'backward' ? m.end : m.start) === caret)
  if (!hit) return null
  return { draft: replaceRange(draft, hit.start, hit.end, { text: '', mentions: [] }), caret: hit.start }
}

/** The `@query` being typed at the caret, as for plain text, but never inside a picked mention. */
export function mentionQueryInDraft(draft: MentionDraft, caret: number) {
  const found = mentionQueryAt(draft.text, caret)
  if (found && draft.mentions.some((m) => found.start >= m.start && found.start < m.end)) return null
  return found
}
