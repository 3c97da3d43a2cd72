import type { Route } from './+types/v1.projects.$id.tracker'
import { linkTrackerSchema, TRACKER_FIELD_CODES } from '~/features/trackers/tracker-api'
import { getTracker, linkTracker, unlinkTracker } from '~/features/trackers/tracker-connect.server'
import { authorize } from '~/features/map/door.server'
import { parseJson, pathId, requireApiWorkspace, v1Route } from '~/http/api.server'

/**
 * The project's tracker (CONTRACT §14): GET for any member; PUT links or relinks GitHub, GitLab
 * or Jira and DELETE unlinks (OWNER, ADMIN, active plan). The token is never in an answer; the
 * webhook secret only in PUT's.
 */
const route = v1Route<Route.LoaderArgs>({
  GET: async ({ request, params }) => getTracker(await requireApiWorkspace(request), pathId(params.id)),
  PUT: async ({ request, params }) => {
    const ctx = await requireApiWorkspace(request)
    const projectId = pathId(params.id)
    authorize(ctx, 'linkTracker')
    const input = await parseJson(request, linkTrackerSchema, TRACKER_FIELD_CODES)
    const { tracker, webhookSecret } = await linkTracker(ctx, projectId, input)
    return Response.json(
      { tracker, webhookSecret },
      {
        headers: { 'Cache-Control': 'no-store' },
      },
    )
  },
  DELETE: async ({ request, params }) => unlinkTracker(await requireApiWorkspace(request), pathId(params.id)),
})
export const loader = route.loader
export const action = route.action
