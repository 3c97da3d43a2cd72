import type { Route } from './+types/v1.trash'
import { listWorkspaceTrash } from '~/features/history/trash.server'
import { requireApiWorkspace, v1Route } from '~/http/api.server'

/** GET /v1/trash: the workspace's deleted projects, newest first (CONTRACT §7). */
const route = v1Route<Route.LoaderArgs>({
  GET: async ({ request }) => listWorkspaceTrash(await requireApiWorkspace(request)),
})
export const loader = route.loader
export const action = route.action
