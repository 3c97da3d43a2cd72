import type { Route } from './+types/v1.features.$id.issue'
import { createTrackerIssue } from '~/features/trackers/tracker-push.server'
import { pathId, requireApiWorkspace, v1Route } from '~/http/api.server'

/** `Create issue` (CONTRACT §14): the feature with its new `issue` on the linked tracker (EDITOR and up). */
const route = v1Route<Route.LoaderArgs>({
  POST: async ({ request, params }) =>
    createTrackerIssue(await requireApiWorkspace(request), pathId(params.id)),
})
export const loader = route.loader
export const action = route.action
