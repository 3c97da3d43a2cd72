import type { Route } from './+types/v1.personas.$id'
import { v1Route } from '~/http/api.server'
import { runBoardCommand } from '~/http/board-api.server'

const route = v1Route<Route.LoaderArgs>({
  POST: ({ request, params }) => runBoardCommand(request, params.id, { type: 'persona.create' }),
  PUT: ({ request, params }) => runBoardCommand(request, params.id, { type: 'persona.update' }),
  DELETE: ({ request, params }) =>
    runBoardCommand(request, params.id, { type: 'persona.delete' }, { body: false }),
})
export const loader = route.loader
export const action = route.action
