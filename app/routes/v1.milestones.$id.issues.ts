import type { Route } from './+types/v1.milestones.$id.issues'
import { sendReleaseToTracker } from '~/features/trackers/tracker-push.server'
import { pathId, requireApiWorkspace, v1Route } from '~/http/api.server'

/** `Send to tracker` (CONTRACT §14): an issue for every open feature of the release without one (EDITOR and up). */
const route = v1Route<Route.LoaderArgs>({
  POST: async ({ request, params }) =>
    sendReleaseToTracker(await requireApiWorkspace(request), pathId(params.id)),
})
export const loader = route.loader
export const action = route.action
