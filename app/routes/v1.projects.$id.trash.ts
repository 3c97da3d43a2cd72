import type { Route } from './+types/v1.projects.$id.trash'
import { listProjectTrash } from '~/features/history/trash.server'
import { pathId, requireApiWorkspace, v1Route } from '~/http/api.server'

/** GET /v1/projects/{id}/trash: the project's deleted cards, newest first (CONTRACT §7). */
const route = v1Route<Route.LoaderArgs>({
  GET: async ({ request, params }) => listProjectTrash(await requireApiWorkspace(request), pathId(params.id)),
})
export const loader = route.loader
export const action = route.action
