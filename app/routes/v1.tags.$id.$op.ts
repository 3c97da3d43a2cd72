import type { Route } from './+types/v1.tags.$id.$op'
import { refuse } from '~/lib/errors'
import { v1Route } from '~/http/api.server'
import { runBoardCommand } from '~/http/board-api.server'

/** POST /v1/tags/{id}/rename {name} and /color {color} (CONTRACT §12). */
const route = v1Route<Route.LoaderArgs>({
  POST: ({ request, params }) => {
    if (params.op === 'rename') return runBoardCommand(request, params.id, { type: 'tag.rename' })
    if (params.op === 'color') return runBoardCommand(request, params.id, { type: 'tag.color' })
    throw refuse.notFound('No such API route.', 'not_found')
  },
})
export const loader = route.loader
export const action = route.action
