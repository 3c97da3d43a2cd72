import type { Route } from './+types/v1.projects.$id.view'
import { mapViewSchema } from '~/features/board/view-schema'
import { getMemberView, setMemberView } from '~/features/board/member-view.server'
import { parseJson, pathId, requireApiWorkspace, v1Route } from '~/http/api.server'

/**
 * GET and PUT /v1/projects/{id}/view: the caller's own folds and zoom on a project's board, for
 * any member, VIEWERs too (CONTRACT §15). Never a change to the map: no event, version or undo.
 */
const route = v1Route<Route.LoaderArgs>({
  GET: async ({ request, params }) => {
    const ctx = await requireApiWorkspace(request)
    return getMemberView(ctx, pathId(params.id))
  },
  PUT: async ({ request, params }) => {
    const ctx = await requireApiWorkspace(request)
    const projectId = pathId(params.id)
    const view = await parseJson(
      request,
      mapViewSchema,
      {},
      {
        zoom_invalid: 'zoom must be 100, 75, 50 or 25.',
        collapsed_workflows_invalid: 'collapsedWorkflows must be a list of goal ids.',
        collapsed_milestones_invalid: 'collapsedMilestones must be a list of release ids.',
      },
    )
    return setMemberView(ctx, projectId, view)
  },
})
export const loader = route.loader
export const action = route.action
