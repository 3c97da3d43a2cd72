import { listWorkspaceTrash } from '~/models/trash.server'
import { requireApiWorkspace, v1Route } from '~/utils/api.server'

/** GET /v1/trash: the workspace's deleted projects, newest first (CONTRACT §7). */
const route = v1Route({
  GET: async ({ request }) => listWorkspaceTrash(await requireApiWorkspace(request)),
})
export const loader = route.loader
export const action = route.action
