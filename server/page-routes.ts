import { matchRoutes, type RouteObject, type ServerBuild } from 'react-router'

/**
 * Whether a path is answered by a page (a route module with a component), as the router will
 * match it: the page worker renders those; resource routes (CSV, JSON exports, live streams, the
 * sign-in redirects) and /v1 stay on the main thread.
 */
export function pageRouteMatcher(build: ServerBuild): (pathname: string) => boolean {
  const nodes = new Map<string, RouteObject & { children: RouteObject[] }>()
  for (const route of Object.values(build.routes)) {
    if (!route) continue
    nodes.set(route.id, {
      id: route.id,
      path: route.path,
      caseSensitive: route.caseSensitive,
      ...(route.index ? { index: true } : {}),
      children: [],
    } as RouteObject & { children: RouteObject[] })
  }
  const roots: RouteObject[] = []
  for (const route of Object.values(build.routes)) {
    if (!route) continue
    const node = nodes.get(route.id)!
    const parent = route.parentId ? nodes.get(route.parentId) : undefined
    ;(parent ? parent.children : roots).push(node)
  }
  for (const node of nodes.values()) if (node.index || node.children.length === 0) delete (node as { children?: unknown }).children
  return (pathname) => {
    const leaf = matchRoutes(roots, pathname)?.at(-1)
    return leaf !== undefined && typeof build.routes[leaf.route.id!]?.module.default === 'function'
  }
}
