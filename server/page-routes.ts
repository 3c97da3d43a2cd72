import { LRUCache } from 'lru-cache'
import { matchRoutes, type RouteObject, type ServerBuild } from 'react-router'

type Node = RouteObject & { children?: Node[] }

/** A route's first path segment when it is literal (`v1`, `account`), else null (`:workspace`, `*`, none). */
function literalStart(path: string | undefined): string | null {
  const first = (path ?? '').split('/')[0]
  if (first === '' || first.startsWith(':') || first.startsWith('*') || first.endsWith('?')) return null
  return first.toLowerCase()
}

/**
 * Whether a path is answered by a page (a route module with a component), as the router will
 * match it: the page worker renders those; resource routes (CSV, JSON exports, live streams, the
 * sign-in redirects) and /v1 stay on the main thread.
 *
 * React Router's `matchRoutes` flattens and ranks the whole tree on every call (1.3 ms for our
 * 118 routes, which made /healthz 5× slower). So each call gets only the root's children that
 * can match the path's first segment (dropping routes that cannot match never changes which one
 * wins), and answers are kept per path.
 */
export function pageRouteMatcher(build: ServerBuild): (pathname: string) => boolean {
  const nodes = new Map<string, Node>()
  for (const route of Object.values(build.routes)) {
    if (!route) continue
    nodes.set(route.id, {
      id: route.id,
      path: route.path,
      caseSensitive: route.caseSensitive,
      ...(route.index ? { index: true } : {}),
    } as Node)
  }
  let root: Node | undefined
  for (const route of Object.values(build.routes)) {
    if (!route) continue
    const node = nodes.get(route.id)!
    const parent = route.parentId ? nodes.get(route.parentId) : undefined
    if (parent) (parent.children ??= []).push(node)
    else root = node
  }
  const children = root?.children ?? []
  const literalOf = new Map(children.map((child) => [child, literalStart(child.path)]))
  const literals = new Set([...literalOf.values()].filter((start) => start !== null))
  // One pruned tree per literal first segment, and one for every other path.
  const pruned = new Map<string | null, Node[]>()
  const treeFor = (first: string) => {
    const key = literals.has(first) ? first : null
    let tree = pruned.get(key)
    if (!tree) {
      const kept = children.filter((child) => literalOf.get(child) === null || literalOf.get(child) === key)
      pruned.set(key, (tree = [{ ...root, children: kept } as Node]))
    }
    return tree
  }
  const answers = new LRUCache<string, boolean>({ max: 5_000 })
  return (pathname) => {
    let page = answers.get(pathname)
    if (page === undefined) {
      let first = pathname.split('/')[1] ?? ''
      try {
        first = decodeURIComponent(first)
      } catch {
        // left as it came: the router does the same with a malformed escape
      }
      const leaf = matchRoutes(treeFor(first.toLowerCase()), pathname)?.at(-1)
      page = leaf !== undefined && typeof build.routes[leaf.route.id!]?.module.default === 'function'
      answers.set(pathname, page)
    }
    return page
  }
}
