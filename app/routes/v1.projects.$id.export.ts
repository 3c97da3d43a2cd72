import type { Route } from './+types/v1.projects.$id.export'
import { getProjectExport } from '~/features/map/project-bundle.server'
import { pathId, requireApiWorkspace, v1Route } from '~/http/api.server'
import { exportResponse } from '~/features/transfer/export-response.server'

/** GET /v1/projects/{id}/export: the whole project as a JSON file, for any member (CONTRACT §8). */
const route = v1Route<Route.LoaderArgs>({
  GET: async ({ request, params }) => {
    const ctx = await requireApiWorkspace(request)
    return exportResponse(getProjectExport(ctx.workspace.id, pathId(params.id)))
  },
})
export const loader = route.loader
export const action = route.action
