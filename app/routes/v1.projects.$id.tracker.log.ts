import type { Route } from './+types/v1.projects.$id.tracker.log'
import { getTrackerLog } from '~/features/trackers/tracker-connect.server'
import { pathId, requireApiWorkspace, v1Route } from '~/http/api.server'

/** The last 50 sync operations of whichever tracker (CONTRACT §14): any member. */
const route = v1Route<Route.LoaderArgs>({
  GET: async ({ request, params }) => getTrackerLog(await requireApiWorkspace(request), pathId(params.id)),
})
export const loader = route.loader
export const action = route.action
