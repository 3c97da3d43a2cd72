import type { Route } from './+types/v1.$kind.$id'
import { apiError, v1Route } from '~/http/api.server'
import { cardKindOfPath, runBoardCommand } from '~/http/board-api.server'

/** POST (create) and DELETE of /v1/{milestones|workflows|subworkflows|features}/{id}; any other first segment is 404. */
function wrongMethod({ params }: { params: { kind?: string } }) {
  cardKindOfPath(params.kind) // an unknown kind is 404 whatever the method
  return apiError(405, 'method_not_allowed', 'This method is not allowed here.')
}
const route = v1Route<Route.LoaderArgs>({
  GET: wrongMethod,
  PUT: wrongMethod,
  POST: ({ request, params }) => {
    const kind = cardKindOfPath(params.kind)
    return runBoardCommand(request, params.id, { type: `${kind}.create` })
  },
  DELETE: ({ request, params }) => {
    const kind = cardKindOfPath(params.kind)
    return runBoardCommand(request, params.id, { type: 'card.delete', kind }, { body: false })
  },
})
export const loader = route.loader
export const action = route.action
