import type { Route } from './+types/v1.projects.$id.github.import'
import { importIssuesSchema } from '~/features/trackers'
import { importIssues } from '~/features/trackers/index.server'
import { authorize } from '~/features/map/door.server'
import { parseJson, pathId, requireApiWorkspace, v1Route } from '~/http/api.server'

/** `Import issues` (CONTRACT §13): one linked feature per matching issue, in one cell, as one change (EDITOR and up). */
const route = v1Route<Route.LoaderArgs>({
  POST: async ({ request, params }) => {
    const ctx = await requireApiWorkspace(request)
    const projectId = pathId(params.id)
    authorize(ctx, 'edit')
    return importIssues(ctx, projectId, await parseJson(request, importIssuesSchema))
  },
})
export const loader = route.loader
export const action = route.action
