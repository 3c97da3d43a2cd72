import type { Route } from './+types/v1.projects.$id.$op'
import { refuse } from '~/lib/errors'
import { v1Route } from '~/http/api.server'
import { runBoardCommand } from '~/http/board-api.server'

/** POST /v1/projects/{id}/rename {title} and /description {description}. */
const route = v1Route<Route.LoaderArgs>({
  POST: ({ request, params }) => {
    if (params.op === 'rename')
      return runBoardCommand(request, params.id, { type: 'card.rename', kind: 'project' })
    if (params.op === 'description')
      return runBoardCommand(request, params.id, { type: 'card.description', kind: 'project' })
    throw refuse.notFound('No such API route.', 'not_found')
  },
})
export const loader = route.loader
export const action = route.action
