import { describe, expect, test } from 'vitest'
import { asciiSource, escapeRegexLiterals } from '../../scripts/ascii-source.mjs'

/** Runs an ES module's text and answers what it exports as `result`. */
async function run(code: string): Promise<unknown> {
  const module = (await import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`)) as {
    result: unknown
  }
  return module.result
}

const NON_ASCII = /[\u0080-\uffff]/

describe('the server build as ASCII only', () => {
  test('strings, templates, names and patterns keep their meaning', async () => {
    const source = `
      // A comment with an en dash – and an emoji 😀
      const café = 'naïve ✓'
      const dash = /^[\\p{L} –—]+$/u
      const plain = /–|😀/
      const escaped = /a\\–b/
      export const result = [café, \`\${café} — 😀\`, dash.test('é – —'), plain.test('x😀'), escaped.test('a–b'), /[–]/.test('-')]
    `
    const { code, ascii } = await asciiSource(source)
    expect(ascii).toBe(true)
    expect(code).not.toMatch(NON_ASCII)
    expect(code).not.toContain('comment')
    expect(await run(code)).toEqual(await run(source))
    expect(await run(code)).toEqual(['naïve ✓', 'naïve ✓ — 😀', true, true, true, false])
  })

  test('keeps licence comments apart', async () => {
    const { code, legal } = await asciiSource(`/*! Copyright Jürgen */\nexport const result = 1\n`)
    expect(code).not.toContain('Copyright')
    expect(legal).toContain('Copyright Jürgen')
  })

  test('leaves a file alone when a character cannot be escaped (a tagged template keeps its raw text)', async () => {
    const source = 'export const result = String.raw`é\\n`\n'
    const { code, ascii } = await asciiSource(source)
    expect(ascii).toBe(false)
    expect(await run(code)).toBe('é\\n')
  })

  test('escapes only inside pattern literals', () => {
    expect(escapeRegexLiterals('const a = /é/g')).toBe('const a = /\\u00E9/g')
    expect(escapeRegexLiterals('const a = /\\\\é/')).toBe('const a = /\\\\\\u00E9/')
    expect(escapeRegexLiterals('const a = "é"')).toBeNull()
    expect(escapeRegexLiterals('const a = 1 / 2 / 3')).toBe('const a = 1 / 2 / 3')
  })
})
