import type { Route } from './+types/$workspace.projects.$projectId.tracker'
import { runTrackerIntent, trackerDialogData } from '~/features/trackers/tracker-page.server'
import { pathId, readJson, requireApiWorkspaceNamed, v1Route } from '~/http/api.server'

/**
 * `/{workspace}/projects/{id}/tracker`: the board's Tracker dialog (CONTRACT §14). GET: the link,
 * the log and what the member may do; POST `{intent, …}`: link, unlink, sync, create an issue,
 * send a release. Refusals in the /v1 error shape.
 */
const route = v1Route<Route.LoaderArgs>({
  GET: async ({ request, params }) =>
    trackerDialogData(
      await requireApiWorkspaceNamed(request, params.workspace),
      pathId(params.projectId, 'projectId'),
    ),
  POST: async ({ request, params }) => {
    const ctx = await requireApiWorkspaceNamed(request, params.workspace)
    return runTrackerIntent(ctx, pathId(params.projectId, 'projectId'), await readJson(request))
  },
})
export const loader = route.loader
export const action = route.action
