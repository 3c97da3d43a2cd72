import { describe, expect, test } from 'vitest'
import zlib from 'node:zlib'
import { brotliOptionsFor, brotliWindowBits } from '~/lib/brotli.server'

describe('brotli window for a whole body', () => {
  test('holds the whole body, within what brotli allows', () => {
    expect(brotliWindowBits(0)).toBe(10)
    expect(brotliWindowBits(900)).toBe(10)
    expect(brotliWindowBits(220_000)).toBe(18)
    // A window of 2^18 bytes holds 2^18 - 16 of them.
    expect(brotliWindowBits(2 ** 18 - 16)).toBe(18)
    expect(brotliWindowBits(2 ** 18 - 15)).toBe(19)
    expect(brotliWindowBits(2 ** 30)).toBe(24)
  })

  test('a map-sized JSON comes back whole, no larger than with the default window', () => {
    const cards = Array.from({ length: 800 }, (_, i) => ({
      kind: 'feature',
      id: `${i.toString(16).padStart(8, '0')}-4dbf-ac80-6d12569165ab`,
      title: `Card ${i} — ${'words '.repeat(i % 9)}`,
      estimate: i % 5,
      createdAt: new Date(Date.UTC(2026, 10, 1, 0, i)).toISOString(),
    }))
    const body = Buffer.from(JSON.stringify({ version: 3, features: cards }))
    const quality = { [zlib.constants.BROTLI_PARAM_QUALITY]: 6 }
    const fitted = zlib.brotliCompressSync(body, brotliOptionsFor(body.length, 6))
    const usual = zlib.brotliCompressSync(body, { params: quality })
    expect(zlib.brotliDecompressSync(fitted).equals(body)).toBe(true)
    expect(fitted.length).toBeLessThanOrEqual(usual.length)
  })
})
