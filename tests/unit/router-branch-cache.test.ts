import { matchRoutes } from '@remix-run/router'
import { createRequire } from 'node:module'
import { expect, it } from 'vitest'

/**
 * The patch in patches/ (react-router #14967 backported to Remix 2's router, ADR 13): a routes
 * array is flattened and ranked once, not on every match. If an upgrade drops the patch, these fail.
 */
function countingRoutes() {
  const reads = { count: 0 }
  const routes = [
    {
      id: 'root',
      path: '/',
      children: [
        { id: 'a', path: 'a/:id' },
        { id: 'b', path: 'b' },
      ],
    },
    { id: 'v1', path: '/v1/*' },
  ]
  // flattenRoutes walks the top-level array with forEach: count the walks.
  const watched = new Proxy(routes, {
    get(target, key, receiver) {
      if (key === 'forEach') reads.count++
      return Reflect.get(target, key, receiver)
    },
  })
  return { routes: watched, reads }
}

it('flattens and ranks a routes array once, however many matches (ES module build)', () => {
  const { routes, reads } = countingRoutes()
  for (const path of ['/a/1', '/b', '/v1/projects', '/a/2', '/nothing'])
    expect(matchRoutes(routes, path)?.at(-1)?.route.id ?? null).toBe(
      { '/a/1': 'a', '/b': 'b', '/v1/projects': 'v1', '/a/2': 'a', '/nothing': null }[path],
    )
  expect(reads.count).toBe(1)
})

it('does the same in the CommonJS build the server runtime loads', () => {
  const require = createRequire(import.meta.url)
  const server = require(
    require.resolve('@remix-run/router', { paths: [require.resolve('@remix-run/server-runtime')] }),
  )
  const { routes, reads } = countingRoutes()
  expect(server.matchRoutes(routes, '/a/7')?.at(-1)?.route.id).toBe('a')
  expect(server.matchRoutes(routes, '/b')?.at(-1)?.route.id).toBe('b')
  expect(reads.count).toBe(1)
})

it('compiles a route pattern once: a repeated match builds no RegExp', () => {
  const { routes } = countingRoutes()
  matchRoutes(routes, '/a/1')
  const original = globalThis.RegExp
  let built = 0
  globalThis.RegExp = new Proxy(original, {
    construct(target, args) {
      built++
      return Reflect.construct(target, args)
    },
  })
  try {
    expect(matchRoutes(routes, '/a/2')?.at(-1)?.params).toEqual({ id: '2' })
  } finally {
    globalThis.RegExp = original
  }
  expect(built).toBe(0)
})

/** A tree like the app's: a root layout, many `/v1` routes, pages under a dynamic first segment. */
const appLikeRoutes = [
  {
    id: 'root',
    path: '',
    children: [
      { id: 'home', index: true },
      { id: 'healthz', path: 'healthz' },
      ...Array.from({ length: 30 }, (_, i) => ({ id: `v1-${i}`, path: `v1/things${i}/:id` })),
      { id: 'rename', path: 'v1/features/:featureId/rename' },
      { id: 'csv', path: ':workspace/projects/:projectId/storymap.csv' },
      { id: 'board', path: ':workspace/projects/:projectId' },
      { id: 'exact', path: 'Exact/page', caseSensitive: true },
      { id: 'docs', path: 'docs/:lang?/intro' },
      { id: 'files', path: 'files/*' },
      { id: 'cafe', path: 'café/menu' },
      { id: 'double', path: 'old//style' },
      { id: 'missing', path: '*' },
    ],
  },
]

it('matches as before when it skips branches by their literal first segments', () => {
  const cases: [string, string, Record<string, string>?][] = [
    ['/', 'home'],
    ['/healthz', 'healthz'],
    ['/HEALTHZ/', 'healthz'],
    ['/v1/things7/42', 'v1-7', { id: '42' }],
    ['/V1/Features/f-1/Rename', 'rename', { featureId: 'f-1' }],
    ['/v1//features/f-1/rename', 'missing'],
    ['/acme/projects/p1', 'board', { workspace: 'acme', projectId: 'p1' }],
    ['/v1/projects/p1', 'board', { workspace: 'v1', projectId: 'p1' }],
    ['/acme/projects/p1/storymap.csv', 'csv'],
    ['/Exact/page', 'exact'],
    ['/exact/page', 'missing'],
    ['/docs/intro', 'docs'],
    ['/docs/fr/intro', 'docs', { lang: 'fr' }],
    ['/files/a/b.txt', 'files', { '*': 'a/b.txt' }],
    ['/caf%C3%A9/menu', 'cafe'],
    ['/old//style', 'double'],
    ['/nothing/here/at/all', 'missing'],
  ]
  for (const [path, id, params] of cases) {
    const leaf = matchRoutes(appLikeRoutes, path)?.at(-1)
    expect(leaf?.route.id, path).toBe(id)
    if (params) expect(leaf?.params, path).toMatchObject(params)
  }
})

// The CommonJS build (the server runtime's, and what vitest resolves) and the ES module build
// (the browser bundle's), each loaded by its own file.
const require = createRequire(import.meta.url)
const builds = {
  'CommonJS build': require('@remix-run/router/dist/router.cjs.js').matchRoutes as typeof matchRoutes,
  'ES module build': (
    (await import('@remix-run/router/dist/router.js')) as unknown as { matchRoutes: typeof matchRoutes }
  ).matchRoutes,
}

it.each(Object.entries(builds))(
  'runs no pattern of a branch whose literal start differs from the path (%s)',
  (_, matchRoutes) => {
    matchRoutes(appLikeRoutes, '/healthz')
    const original = String.prototype.match
    let tried = 0
    String.prototype.match = function (this: string, matcher: Parameters<typeof original>[0]) {
      tried++
      return original.call(this, matcher)
    } as typeof original
    try {
      expect(matchRoutes(appLikeRoutes, '/healthz')?.at(-1)?.route.id).toBe('healthz')
    } finally {
      String.prototype.match = original
    }
    // Two patterns (the root's, then the leaf's) for /healthz and for each branch ranked above it
    // that has no plain literal start: the two under a parameter, the case-sensitive one, the
    // non-ASCII one and the one with `//`. Without the skip, the thirty-one under /v1 and the
    // rest: over 70.
    expect(tried).toBe(12)
  },
)
