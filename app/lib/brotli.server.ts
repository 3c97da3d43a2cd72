import zlib from 'node:zlib'

const { BROTLI_MIN_WINDOW_BITS, BROTLI_MAX_WINDOW_BITS } = zlib.constants

/**
 * brotli's window for a body of `byteLength` bytes: just large enough to hold all of it (brotli
 * keeps 16 bytes of its window back). The default window (4 MB) made brotli take an 8 MB ring
 * buffer for every body over about 100 KB, which glibc mapped and faulted in afresh for each one
 * (blocks over the mmap threshold go back to the system when freed, ADR 23): each 220 KB map JSON
 * held 8.4 MB while it was compressed, a few at once on a busy page thread, and took 12 % longer.
 * A window that holds the whole body finds every match the default one finds (issue 49).
 */
export function brotliWindowBits(byteLength: number): number {
  const bits = Math.ceil(Math.log2(byteLength + 16))
  return Math.min(BROTLI_MAX_WINDOW_BITS, Math.max(BROTLI_MIN_WINDOW_BITS, bits))
}

/** Options for compressing a whole body of `byteLength` bytes at `quality`. */
export function brotliOptionsFor(
  byteLength: number,
  quality: number,
  mode: number = zlib.constants.BROTLI_MODE_GENERIC,
): zlib.BrotliOptions {
  return {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: quality,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: byteLength,
      [zlib.constants.BROTLI_PARAM_LGWIN]: brotliWindowBits(byteLength),
      [zlib.constants.BROTLI_PARAM_MODE]: mode,
    },
  }
}
