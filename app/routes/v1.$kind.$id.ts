import { apiError, v1Route } from '~/utils/api.server'
import { cardKindOfPath, runBoardCommand } from '~/utils/board-api.server'

/** POST (create) and DELETE of /v1/{milestones|workflows|subworkflows|features}/{id}; any other first segment is 404. */
const notAllowed = () => apiError(405, 'method_not_allowed', 'This method is not allowed here.')
const route = v1Route({
  GET: ({ params }) => (cardKindOfPath(params.kind), notAllowed()),
  PUT: ({ params }) => (cardKindOfPath(params.kind), notAllowed()),
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
