import { describe, expect, it } from 'vitest'
import { modulePreloadHeader } from '~/http/module-preloads'

describe('modulePreloadHeader: the page modules named in the answer', () => {
  const manifest = {
    url: '/assets/manifest-1.js',
    entry: { module: '/assets/entry.client-1.js', imports: ['/assets/react-1.js', '/assets/router-1.js'] },
    routes: {
      root: { module: '/assets/root-1.js', imports: ['/assets/react-1.js', '/assets/theme-1.js'] },
      board: { module: '/assets/board-1.js' },
      other: { module: '/assets/other-1.js' },
    },
  }

  it("lists the manifest, the entry and its imports, and each matched route's module and imports, once each", () => {
    const header = modulePreloadHeader({
      manifest,
      staticHandlerContext: { matches: [{ route: { id: 'root' } }, { route: { id: 'board' } }] },
    })
    expect(header.split(', ')).toEqual([
      '</assets/manifest-1.js>; rel=modulepreload',
      '</assets/entry.client-1.js>; rel=modulepreload',
      '</assets/react-1.js>; rel=modulepreload',
      '</assets/router-1.js>; rel=modulepreload',
      '</assets/root-1.js>; rel=modulepreload',
      '</assets/theme-1.js>; rel=modulepreload',
      '</assets/board-1.js>; rel=modulepreload',
    ])
  })

  it('skips a match the manifest does not know', () => {
    const header = modulePreloadHeader({
      manifest,
      staticHandlerContext: { matches: [{ route: { id: 'gone' } }] },
    })
    expect(header).not.toContain('gone')
    expect(header).not.toContain('other')
  })
})
