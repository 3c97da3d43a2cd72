import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  bundleOfPage,
  packBundleBytes,
  packBundleText,
  pageMapText,
  scriptSafeJson,
  unpackBundleText,
  withBundleForRender,
} from '~/features/map/bundle-text'
import type { ProjectBundle } from '~/features/map/bundle-types'

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
  const bundle = {
    version: 3,
    project: { id: 'p1', title: `It's "ours" — ünïcode` },
  } as unknown as ProjectBundle

  it('packs from the kept UTF-8 bytes as from the text, and leaves the kept bytes as they were', () => {
    const json = JSON.stringify(bundle)
    const bytes = new TextEncoder().encode(json)
    expect(packBundleBytes(bytes)).toBe(packBundleText(json))
    expect(new TextDecoder().decode(bytes)).toBe(json)
  })

  it('is the map the loader kept, on the server, and the unpacked text where nothing was kept (the browser)', () => {
    const text = packBundleText(JSON.stringify(bundle))
    const kept = { ...bundle, version: 4 } as ProjectBundle
    expect(bundleOfPage(withBundleForRender({ bundleText: text }, () => kept, ''))).toBe(kept)
    expect(bundleOfPage({ bundleText: text })).toEqual(bundle)
  })
})

describe('the map a whole page carries in its own element', () => {
  it('is the same JSON to parse, with no `<` left to end the element, whatever the map holds', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const safe = scriptSafeJson(JSON.stringify(value))
        expect(safe).not.toContain('<')
        expect(JSON.parse(safe)).toEqual(JSON.parse(JSON.stringify(value)))
      }),
      { numRuns: 500 },
    )
    const title = '</script><script>alert(1)</script> <!-- \\< x'
    const safe = scriptSafeJson(JSON.stringify({ title }))
    expect(safe).not.toMatch(/<\/script|<!--/i)
    expect(JSON.parse(safe)).toEqual({ title })
  })

  it('comes from the kept JSON only for an answer that left the map to the page', () => {
    const json = JSON.stringify({ project: { title: 'a <b> “c”' } })
    const left = withBundleForRender({ bundleText: null }, () => ({}) as ProjectBundle, json)
    expect(JSON.parse(pageMapText(left)!)).toEqual({ project: { title: 'a <b> “c”' } })
    expect(pageMapText(left)).not.toContain('<')
    expect(
      pageMapText(withBundleForRender({ bundleText: 'x' }, () => ({}) as ProjectBundle, json)),
    ).toBeNull()
    expect(pageMapText({ bundleText: null })).toBeNull()
    // A map with no `<` goes as it is: the same text, no copy of it made.
    const plain = JSON.stringify({ project: { title: 'a “c”' } })
    expect(pageMapText(withBundleForRender({ bundleText: null }, () => ({}) as ProjectBundle, plain))).toBe(
      plain,
    )
  })

  it('is read by the browser from the page once, and kept for the same answer shown again offline', () => {
    const map = { version: 7, project: { id: 'p9', title: 'Ours' } }
    let text: string | null = scriptSafeJson(JSON.stringify(map))
    const reads: string[] = []
    const element = {
      get textContent() {
        reads.push('read')
        return text
      },
    }
    const saved = globalThis.document
    Object.assign(globalThis, {
      document: { getElementById: (id: string) => (id === 'page-map' ? element : null) },
    })
    try {
      expect(bundleOfPage({ bundleText: null })).toEqual(map)
      text = null // the element went when fresher data came
      expect(bundleOfPage({ bundleText: null })).toEqual(map)
      expect(reads).toHaveLength(1)
    } finally {
      Object.assign(globalThis, { document: saved })
    }
  })
})
