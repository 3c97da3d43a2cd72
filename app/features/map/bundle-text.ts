import type { ProjectBundle } from './bundle-types'

/**
 * The map travels to a page as JSON text inside the router's data, which is itself a JS string in
 * a <script>: every `"` of the map is escaped twice on the way (`"` → `\\\"`, four bytes), and a
 * map's JSON is mostly quotes (keys, ids). Swapping `"` and `'` before sending makes those quotes
 * travel as one byte each; the page swaps them back. A 300-card board page fell from 665 to
 * 590 KB and its server time by about 7 % (issue 34, docs/benchmarks.md).
 *
 * The swap is its own inverse, so the same function packs and unpacks.
 */
export function swapQuotes(jsonText: string): string {
  return decoder.decode(swapQuoteBytes(encoder.encode(jsonText)))
}

/**
 * Swaps the quotes in place. On UTF-8 bytes: a third of the time of three replaceAll passes (0.9
 * against 2.5 ms for a 300-card map). Both quotes are ASCII, so no multi-byte character is touched.
 */
function swapQuoteBytes(bytes: Uint8Array): Uint8Array {
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === DOUBLE) bytes[i] = SINGLE
    else if (bytes[i] === SINGLE) bytes[i] = DOUBLE
  }
  return bytes
}

const encoder = new TextEncoder()
const decoder = new TextDecoder()
const DOUBLE = 0x22
const SINGLE = 0x27

/** A map's JSON text as a page's loader sends it. */
export const packBundleText = swapQuotes

/** The same from the map's UTF-8 JSON as the server keeps it (one decode, the bytes left as they were). */
export function packBundleBytes(json: Uint8Array): string {
  return decoder.decode(swapQuoteBytes(json.slice()))
}

/** The JSON text back from what a page's loader sent. */
export const unpackBundleText = swapQuotes

/**
 * What the server keeps of a loader's answer for its render of the same request, keyed by the
 * answer itself (the object the render gets back): the map it had already read, so the render
 * skips unpacking the text it was just given, and the map's JSON for the page to carry when the
 * answer leaves it out (`bundleText: null`, see `pageMapText`). In the browser nothing is kept.
 */
type Kept = { bundle: () => ProjectBundle; json: string }
const keptForRender = new WeakMap<object, Kept>()

/** A loader's answer carrying `bundleText`, with the map and its JSON text kept for the server's render of it. */
export function withBundleForRender<T extends { bundleText: string | null }>(
  answer: T,
  bundle: () => ProjectBundle,
  json: string,
): T {
  keptForRender.set(answer, { bundle, json })
  return answer
}

/**
 * The map a page's loader sent: on the server the one kept; in the browser its text unpacked, or,
 * when the loader left it to the page (a whole page), the page's own copy (`pageMapText`).
 */
export function bundleOfPage(answer: { bundleText: string | null }): ProjectBundle {
  const kept = keptForRender.get(answer)
  if (kept) return kept.bundle()
  return JSON.parse(
    answer.bundleText === null ? mapTextInDocument() : unpackBundleText(answer.bundleText),
  ) as ProjectBundle
}

/**
 * A whole board page carries its map once, as the text of a `<script type="application/json">`
 * (PAGE_MAP_ID), and the loader's data leaves it out (`bundleText: null`). Inside the router's
 * data the same JSON was a string in a string: escaped twice, encoded and decoded again on both
 * sides; this is the kept UTF-8 JSON with only its `<` written `\u003c` (no `</script>` or
 * `<!--` in a title can end or bend the element). The data of a page already open (`.data`)
 * still carries the text, which has no page around it. A 300-card page's CPU: 33 → 26 ms
 * (issue 34, docs/benchmarks.md).
 */
export const PAGE_MAP_ID = 'page-map'

/** The text of the page's map element, from the kept JSON: on the server, for an answer that left the map to the page. */
export function pageMapText(answer: { bundleText: string | null }): string | null {
  const kept = answer.bundleText === null ? keptForRender.get(answer) : undefined
  return kept ? scriptSafeJson(kept.json) : null
}

/** JSON as the text of a script element: the same JSON to JSON.parse, with no `<` left (most maps have none: no copy). */
export function scriptSafeJson(json: string): string {
  return json.includes('<') ? json.replaceAll('<', '\\u003c') : json
}

/**
 * The map of the page the browser loaded, read once from its element and kept: the element goes
 * when fresher data comes, but a page kept on screen offline (offline-loader.ts) may show the
 * first answer again. Only the document's own answer has `bundleText: null`, so this is its map.
 */
let documentMapText: string | undefined
function mapTextInDocument(): string {
  documentMapText ??= document.getElementById(PAGE_MAP_ID)?.textContent ?? undefined
  if (documentMapText === undefined) throw new Error('The page came without its map.')
  return documentMapText
}
