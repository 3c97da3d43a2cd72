import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { bundleOfPage, packBundleBytes, packBundleText, unpackBundleText, withBundleForRender } from '~/features/board/bundle-text'
import type { ProjectBundle } from '~/features/board/board-types'

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

describe('the map a board page renders', () => {
  const bundle = { version: 3, project: { id: 'p1', title: `It's "ours" — ünïcode` } } as unknown as ProjectBundle

  it('packs from the kept UTF-8 bytes as from the text, and leaves the kept bytes as they were', () => {
    const json = JSON.stringify(bundle)
    const bytes = new TextEncoder().encode(json)
    expect(packBundleBytes(bytes)).toBe(packBundleText(json))
    expect(new TextDecoder().decode(bytes)).toBe(json)
  })

  it('is the map the loader kept, on the server, and the unpacked text where nothing was kept (the browser)', () => {
    const text = packBundleText(JSON.stringify(bundle))
    const kept = { ...bundle, version: 4 } as ProjectBundle
    expect(bundleOfPage(withBundleForRender({ bundleText: text }, () => kept))).toBe(kept)
    expect(bundleOfPage({ bundleText: text })).toEqual(bundle)
  })
})
