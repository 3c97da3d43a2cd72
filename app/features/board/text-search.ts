/**
 * Text matching for the board's search (CONTRACT §9): case- and accent-insensitive, every
 * typed word must occur somewhere in the text.
 */

// Plain ASCII has no accents to drop, and lower-casing keeps its length: the fast path.
const NOT_ASCII = /[^\u0020-\u007e\t\n\r]/
const isAscii = (text: string) => !NOT_ASCII.test(text)

/** Lower case without accents: `Café Crème` → `cafe creme`. */
export function normalizeText(text: string): string {
  if (isAscii(text)) return text.toLowerCase()
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()
}

/** The normalized words of a query, longest first (so highlighting prefers whole words), without repeats. */
export function searchWords(query: string): string[] {
  const words = normalizeText(query).split(/\s+/u).filter(Boolean)
  return [...new Set(words)].sort((a, b) => b.length - a.length)
}

/** True when every word occurs in `normalized` (a text already passed through normalizeText). */
export function containsAllWords(normalized: string, words: readonly string[]): boolean {
  for (const word of words) if (!normalized.includes(word)) return false
  return true
}

export type TextRange = readonly [start: number, end: number]

/**
 * Where the words occur in `text` (indices into the original string, end exclusive), sorted and
 * merged, for highlighting. A match in the normalized text is mapped back to the characters it
 * came from, so `cafe` marks all of `Café`, combining accents included.
 */
export function highlightRanges(text: string, words: readonly string[]): TextRange[] {
  if (words.length === 0 || text === '') return []
  let normalized = text.toLowerCase()
  let origin: number[] | null = null // origin[i]: index in `text` of the character normalized[i] came from
  if (!isAscii(text)) {
    normalized = ''
    origin = []
    let index = 0
    for (const char of text) {
      const n = normalizeText(char)
      for (let k = 0; k < n.length; k++) origin.push(index)
      normalized += n
      index += char.length
    }
  }
  const startOf = (at: number) => (origin ? origin[at] : at)
  const endOf = (normalizedEnd: number) => {
    if (normalizedEnd >= normalized.length) return text.length
    return startOf(normalizedEnd)
  }
  const found: [number, number][] = []
  for (const word of words) {
    for (let at = normalized.indexOf(word); at !== -1; at = normalized.indexOf(word, at + word.length)) {
      found.push([startOf(at), endOf(at + word.length)])
    }
  }
  found.sort((a, b) => a[0] - b[0] || a[1] - b[1])
  const merged: [number, number][] = []
  for (const range of found) {
    const last = merged[merged.length - 1]
    if (last && range[0] <= last[1]) last[1] = Math.max(last[1], range[1])
    else merged.push([range[0], range[1]])
  }
  return merged
}

/** Ranges as a short string (`0-4,9-12`); equal strings mean the same highlighting. */
export function rangesKey(ranges: readonly TextRange[]): string {
  return ranges.map(([a, b]) => `${a}-${b}`).join(',')
}

export function parseRangesKey(key: string): TextRange[] {
  if (!key) return []
  return key.split(',').map((part) => {
    const [a, b] = part.split('-').map(Number)
    return [a, b] as const
  })
}
