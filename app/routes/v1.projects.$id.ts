import type { Route } from './+types/v1.projects.$id'
import { getProjectBundleBody } from '~/features/map/project-bundle.server'
import { encodedJson, pathId, requireApiWorkspace, v1Route } from '~/http/api.server'
import { runBoardCommand } from '~/http/board-api.server'

const route = v1Route<Route.LoaderArgs>({
  GET: async ({ request, params }) => {
    const ctx = await requireApiWorkspace(request)
    return encodedJson(
      await getProjectBundleBody(ctx.workspace.id, pathId(params.id), request.headers.get('Accept-Encoding')),
    )
  },
  POST: ({ request, params }) => runBoardCommand(request, params.id, { type: 'project.create' }),
  DELETE: ({ request, params }) =>
    runBoardCommand(request, params.id, { type: 'card.delete', kind: 'project' }, { body: false }),
})
export const loader = route.loader
export const action = route.action
