import type { Route } from './+types/v1.$kind.$id.$op'
import { cardOperation } from '~/features/board/card-routes'
import { refuse } from '~/lib/errors'
import { apiError, v1Route } from '~/http/api.server'
import { cardKindOfPath, runBoardCommand } from '~/http/board-api.server'
import { narrowPattern } from '~/http/route-pattern.server'

/** POST /v1/{milestones|workflows|subworkflows|features}/{id}/{op}: the shared card operations. */
function operation(kindSegment: string | undefined, op: string | undefined) {
  const kind = cardKindOfPath(kindSegment)
  const found = cardOperation(kind, op)
  if (!found) throw refuse.notFound('No such API route.', 'not_found')
  return { kind, ...found }
}

function wrongMethod({ params }: { params: { kind?: string; op?: string } }) {
  operation(params.kind, params.op) // an unknown route is 404 whatever the method
  return apiError(405, 'method_not_allowed', 'This method is not allowed here.')
}

const route = v1Route<Route.LoaderArgs>({
  POST: ({ request, params, context }) => {
    const { kind, command, body } = operation(params.kind, params.op)
    // Both checked against fixed lists by now: `/v1/features/:id/rename`, not `/v1/:kind/:id/:op`.
    narrowPattern(context, `/v1/${params.kind}/:id/${params.op}`)
    return runBoardCommand(request, params.id, command(kind), { body })
  },
  GET: wrongMethod,
  PUT: wrongMethod,
  DELETE: wrongMethod,
})
export const loader = route.loader
export const action = route.action
