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
    { id: 'root', path: '/', children: [{ id: 'a', path: 'a/:id' }, { id: 'b', path: 'b' }] },
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
  const server = require(require.resolve('@remix-run/router', { paths: [require.resolve('@remix-run/server-runtime')] }))
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
