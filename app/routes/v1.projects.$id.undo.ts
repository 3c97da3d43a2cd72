import type { Route } from './+types/v1.projects.$id.undo'
import { undo } from '~/features/history/history.server'
import { pathId, requireApiWorkspace, v1Route } from '~/http/api.server'

/** POST /v1/projects/{id}/undo: undoes the caller's most recent change here (CONTRACT §7). */
const route = v1Route<Route.LoaderArgs>({
  POST: async ({ request, params }) => undo(await requireApiWorkspace(request), pathId(params.id)),
})
export const loader = route.loader
export const action = route.action
