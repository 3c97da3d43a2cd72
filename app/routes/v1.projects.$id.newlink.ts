import type { Route } from './+types/v1.projects.$id.newlink'
import { newProjectLink } from '~/features/workspaces/sharing.server'
import { pathId, requireApiWorkspace, v1Route } from '~/http/api.server'

/** POST /v1/projects/{id}/newlink: a new share key; the old link answers 404 at once (CONTRACT §8). */
const route = v1Route<Route.LoaderArgs>({
  POST: async ({ request, params }) => {
    const ctx = await requireApiWorkspace(request)
    return newProjectLink(ctx, pathId(params.id))
  },
})
export const loader = route.loader
export const action = route.action
