import { createRequire } from 'node:module'
import path from 'node:path'
import { createStaticHandler, type StaticHandlerContext } from 'react-router'
import { expect, it } from 'vitest'

/**
 * The patch in patches/ (ADR 13): React Router's handlers match a URL against branches flattened
 * and ranked once (upstream); ours skips a branch with a literal segment that differs from the
 * path's at its position (after parameters too) without running its patterns. If an upgrade drops the patch, the counting test fails;
 * the matching test checks it never changes which route matches.
 */

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
      ...Array.from({ length: 20 }, (_, i) => ({ id: `ws-${i}`, path: `:workspace/section${i}/:id/edit` })),
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

// The ES module build (what Node loads for `react-router` here) and the CommonJS build, each by its file.
const require = createRequire(import.meta.url)
const dist = path.join(path.dirname(require.resolve('react-router')), '..', 'development')
const builds = {
  'ES module build': createStaticHandler,
  'CommonJS build': require(path.join(dist, 'index.js')).createStaticHandler as typeof createStaticHandler,
}

async function leafOf(create: typeof createStaticHandler, pathname: string) {
  const context = (await create(appLikeRoutes).query(
    new Request(`http://storymap.test${pathname}`),
  )) as StaticHandlerContext
  return context.matches.at(-1)
}

it.each(Object.entries(builds))(
  'matches as before when it skips branches by their literal segments (%s)',
  async (_, create) => {
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
      ['/acme/projects/p1/STORYMAP.CSV/', 'csv'],
      ['/acme/section7/x/edit', 'ws-7', { workspace: 'acme', id: 'x' }],
      ['/v1/Section7/x/EDIT', 'ws-7', { workspace: 'v1', id: 'x' }],
      ['/acme/section7//x/edit', 'missing'],
      ['/acme/section7/x', 'missing'],
      ['/Exact/page', 'exact'],
      ['/exact/page', 'missing'],
      ['/docs/intro', 'docs'],
      ['/docs/fr/intro', 'docs', { lang: 'fr' }],
      ['/files/a/b.txt', 'files', { '*': 'a/b.txt' }],
      ['/caf%C3%A9/menu', 'cafe'],
      ['/old//style', 'double'],
      ['/nothing/here/at/all', 'missing'],
    ]
    for (const [pathname, id, params] of cases) {
      const leaf = await leafOf(create, pathname)
      expect(leaf?.route.id, pathname).toBe(id)
      if (params) expect(leaf?.params, pathname).toMatchObject(params)
    }
  },
)

/** How many patterns the handler runs to match `pathname` (each is one String#match), and the leaf it finds. */
async function patternsRun(create: typeof createStaticHandler, pathname: string) {
  const handler = create(appLikeRoutes)
  const request = () => new Request(`http://storymap.test${pathname}`)
  await handler.query(request())
  const original = String.prototype.match
  let tried = 0
  String.prototype.match = function (this: string, matcher: Parameters<typeof original>[0]) {
    tried++
    return original.call(this, matcher)
  } as typeof original
  let context: StaticHandlerContext
  try {
    context = (await handler.query(request())) as StaticHandlerContext
  } finally {
    String.prototype.match = original
  }
  return { tried, leaf: context.matches.at(-1)?.route.id }
}

it.each(Object.entries(builds))(
  'runs no pattern of a branch with a literal that differs from the path (%s)',
  async (_, create) => {
    // Two patterns (the root's, then the leaf's) for /healthz and for each branch ranked above it
    // that the skip cannot rule out: the case-sensitive one, the non-ASCII one and the one with
    // `//`. Without the skip, the thirty-one under /v1, the twenty-two under a parameter and the
    // rest: over 110.
    const healthz = await patternsRun(create, '/healthz')
    expect(healthz.leaf).toBe('healthz')
    expect(healthz.tried).toBeLessThan(20)
    // The twenty routes under a parameter outrank the rename and share its length: their second
    // segment rules them out (with only the first one looked at, over 40 patterns ran).
    const rename = await patternsRun(create, '/v1/features/f-1/rename')
    expect(rename.leaf).toBe('rename')
    expect(rename.tried).toBeLessThan(20)
  },
)
