import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { packBundleText, unpackBundleText } from '~/features/board/bundle-text'

describe('the map text a board page carries', () => {
  it('comes back as the same JSON, whatever the map holds (quotes, apostrophes, U+0000 in a title)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const json = JSON.stringify(value)
        expect(unpackBundleText(packBundleText(json))).toBe(json)
      }),
      { numRuns: 500 },
    )
    const title = `It's "done"\u0000 \\" '`
    const json = JSON.stringify({ title })
    expect(JSON.parse(unpackBundleText(packBundleText(json)))).toEqual({ title })
  })

  it('carries a map with no double quote left to escape', () => {
    const json = JSON.stringify({ project: { id: 'a1', title: 'Pay "now"' }, features: [{ id: 'f1' }] })
    const packed = packBundleText(json)
    expect(packed).not.toContain('"')
  })
})
