import type { Route } from './+types/v1.tags.$id'
import { v1Route } from '~/http/api.server'
import { runBoardCommand } from '~/http/board-api.server'

/** POST /v1/tags/{id} {projectId, name, color} creates a tag; DELETE takes it off every feature (CONTRACT §12). */
const route = v1Route<Route.LoaderArgs>({
  POST: ({ request, params }) => runBoardCommand(request, params.id, { type: 'tag.create' }),
  DELETE: ({ request, params }) =>
    runBoardCommand(request, params.id, { type: 'tag.delete' }, { body: false }),
})
export const loader = route.loader
export const action = route.action
