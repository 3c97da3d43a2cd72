import type { Route } from './+types/v1.workflowpersonas.$id'
import { v1Route } from '~/http/api.server'
import { runBoardCommand } from '~/http/board-api.server'

const route = v1Route<Route.LoaderArgs>({
  POST: ({ request, params }) => runBoardCommand(request, params.id, { type: 'workflowPersona.create' }),
  DELETE: ({ request, params }) =>
    runBoardCommand(request, params.id, { type: 'workflowPersona.delete' }, { body: false }),
})
export const loader = route.loader
export const action = route.action
