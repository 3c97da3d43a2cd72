import type { Route } from './+types/v1.projects.$id.tracker.sync'
import { syncTracker } from '~/features/trackers/tracker-sync.server'
import { pathId, requireApiWorkspace, v1Route } from '~/http/api.server'

/** `Sync now` (CONTRACT §14): polls the tracker at once, re-reads every linked issue (EDITOR and up). */
const route = v1Route<Route.LoaderArgs>({
  POST: async ({ request, params }) => syncTracker(await requireApiWorkspace(request), pathId(params.id)),
})
export const loader = route.loader
export const action = route.action
