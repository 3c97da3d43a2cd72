import type { Route } from './+types/v1.projects.$id.tracker.import'
import { importIssuesSchema } from '~/features/trackers'
import { importTrackerIssues } from '~/features/trackers/tracker-sync.server'
import { authorize } from '~/features/map/door.server'
import { parseJson, pathId, requireApiWorkspace, v1Route } from '~/http/api.server'

/** `Import issues` (CONTRACT §14): one linked feature per matching issue of the tracker, one change (EDITOR and up). */
const route = v1Route<Route.LoaderArgs>({
  POST: async ({ request, params }) => {
    const ctx = await requireApiWorkspace(request)
    const projectId = pathId(params.id)
    authorize(ctx, 'edit')
    return importTrackerIssues(ctx, projectId, await parseJson(request, importIssuesSchema))
  },
})
export const loader = route.loader
export const action = route.action
