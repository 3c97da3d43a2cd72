import type { Route } from './+types/v1.projects.$id.redo'
import { redo } from '~/features/history/history.server'
import { pathId, requireApiWorkspace, v1Route } from '~/http/api.server'

/** POST /v1/projects/{id}/redo: re-applies the caller's most recently undone change (CONTRACT §7). */
const route = v1Route<Route.LoaderArgs>({
  POST: async ({ request, params }) => redo(await requireApiWorkspace(request), pathId(params.id)),
})
export const loader = route.loader
export const action = route.action
