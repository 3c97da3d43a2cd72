// The custom server and the Remix build are two bundles in one process; keeping shared
// resources on globalThis makes both see the same database connection and configuration.
export function singleton<T>(name: string, create: () => T): T {
  const store = globalThis as unknown as { __storymapSingletons?: Map<string, unknown> }
  store.__storymapSingletons ??= new Map()
  if (!store.__storymapSingletons.has(name)) store.__storymapSingletons.set(name, create())
  return store.__storymapSingletons.get(name) as T
}
