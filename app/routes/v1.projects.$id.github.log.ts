import type { Route } from './+types/v1.projects.$id.github.log'
import { getSyncLog } from '~/features/trackers/index.server'
import { pathId, requireApiWorkspace, v1Route } from '~/http/api.server'

/** The last 50 sync operations of the project (CONTRACT §13), for any member. */
const route = v1Route<Route.LoaderArgs>({
  GET: async ({ request, params }) => getSyncLog(await requireApiWorkspace(request), pathId(params.id)),
})
export const loader = route.loader
export const action = route.action
