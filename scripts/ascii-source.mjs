// The server's built JavaScript as ASCII only, without comments or indentation (ADR 45).
// V8 keeps every module's source for as long as the process runs, and a source with a single
// character beyond ASCII is kept two bytes per character: the router's 3 MB build took 6.5 MB in
// the main thread and again in each page thread.
import { tokenizer } from 'acorn'
import { transform } from 'esbuild'

const NON_ASCII = /[\u0080-\uffff]/

const unicodeEscape = (unit) => `\\u${unit.toString(16).toUpperCase().padStart(4, '0')}`

/**
 * The text ranges of the regular expression literals in `code`: esbuild's `charset: 'ascii'`
 * escapes strings, templates and names but leaves these as they were written (evanw/esbuild#4205).
 */
function regexRanges(code) {
  const ranges = []
  for (const token of tokenizer(code, { ecmaVersion: 'latest', sourceType: 'module' })) {
    if (token.type.label === 'regexp') ranges.push([token.start, token.end])
  }
  return ranges
}

/**
 * Each non-ASCII UTF-16 unit inside a regular expression literal as `\uXXXX`: the same pattern
 * with or without the `u` flag (a surrogate pair's two escapes are one code point under `u`). An
 * identity escape (`\–`, allowed without `u`) loses its backslash. Returns null when a non-ASCII
 * character is anywhere else (a tagged template's raw text): that file is left as it is.
 */
export function escapeRegexLiterals(code) {
  const ranges = regexRanges(code)
  let out = ''
  let from = 0
  let range = 0
  for (let at = 0; at < code.length; at++) {
    const unit = code.charCodeAt(at)
    if (unit < 0x80) continue
    while (range < ranges.length && ranges[range][1] <= at) range++
    if (range === ranges.length || ranges[range][0] > at) return null
    let backslashes = 0
    while (code[at - 1 - backslashes] === '\\') backslashes++
    out += code.slice(from, backslashes % 2 === 1 ? at - 1 : at) + unicodeEscape(unit)
    from = at + 1
  }
  return out + code.slice(from)
}

/**
 * `code` (an ES module) reprinted by esbuild with ASCII only and without whitespace or comments;
 * the licence comments it had come back apart. `ascii` is false when the file had to keep a
 * character beyond ASCII.
 */
export async function asciiSource(code) {
  const result = await transform(code, {
    loader: 'js',
    charset: 'ascii',
    minifyWhitespace: true,
    legalComments: 'external',
  })
  if (!NON_ASCII.test(result.code)) return { code: result.code, legal: result.legalComments, ascii: true }
  const escaped = escapeRegexLiterals(result.code)
  return escaped === null
    ? { code: result.code, legal: result.legalComments, ascii: false }
    : { code: escaped, legal: result.legalComments, ascii: true }
}
