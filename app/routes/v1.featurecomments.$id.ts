import type { Route } from './+types/v1.featurecomments.$id'
import { v1Route } from '~/http/api.server'
import { runBoardCommand } from '~/http/board-api.server'

const route = v1Route<Route.LoaderArgs>({
  POST: ({ request, params }) => runBoardCommand(request, params.id, { type: 'comment.create' }),
  DELETE: ({ request, params }) =>
    runBoardCommand(request, params.id, { type: 'comment.delete' }, { body: false }),
})
export const loader = route.loader
export const action = route.action
