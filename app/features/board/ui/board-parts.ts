import { useMatches } from 'react-router'
import { useEffect } from 'react'

/** The board's dialogs that load when first needed (and the validation library they use). */
export const loadNewCardModal = () => import('./new-card-modal')
export const loadShortcutsDialog = () => import('./shortcuts-dialog')

/** The routes whose children are the card dialogs: the project page and the public link. */
const BOARD_ROUTES = new Set(['routes/$workspace.projects.$projectId', 'routes/link.$key'])

type RemixWindow = {
  __reactRouterManifest?: { routes: Record<string, { parentId?: string; module: string }> }
  __reactRouterRouteModules?: Record<string, unknown>
}

/**
 * Once the board is idle, loads the code of what it may open later: the New card and shortcuts
 * dialogs, and the card dialog routes. Loaded while the network is there, they open offline too
 * (a route module that cannot load makes Remix reload the page, which offline is the browser's
 * error page).
 */
export function usePreloadBoardParts() {
  const board = useMatches().find((m) => BOARD_ROUTES.has(m.id))?.id
  useEffect(() => {
    if (!board) return
    const preload = () => {
      void loadNewCardModal().catch(() => undefined)
      void loadShortcutsDialog().catch(() => undefined)
      const w = window as RemixWindow
      for (const [id, route] of Object.entries(w.__reactRouterManifest?.routes ?? {})) {
        if (route.parentId !== board || w.__reactRouterRouteModules?.[id]) continue
        void import(/* @vite-ignore */ route.module).catch(() => undefined)
      }
    }
    if (typeof requestIdleCallback === 'function') {
      const handle = requestIdleCallback(preload, { timeout: 5000 })
      return () => cancelIdleCallback(handle)
    }
    const handle = setTimeout(preload, 2000)
    return () => clearTimeout(handle)
  }, [board])
}
