import type { CardKind } from '~/domain/board-commands'
import { refuse } from '~/domain/errors'
import { apiError, v1Route } from '~/utils/api.server'
import { cardKindOfPath, runBoardCommand } from '~/utils/board-api.server'

/**
 * The shared card operations of the four card kinds, one table instead of four copies:
 * POST /v1/{milestones|workflows|subworkflows|features}/{id}/{op}.
 */
const OPERATIONS: Record<
  string,
  { base: (kind: CardKind) => Record<string, unknown>; body: boolean; only?: CardKind }
> = {
  rename: { base: (kind) => ({ type: 'card.rename', kind }), body: true },
  description: { base: (kind) => ({ type: 'card.description', kind }), body: true },
  open: { base: (kind) => ({ type: 'card.open', kind }), body: false },
  close: { base: (kind) => ({ type: 'card.close', kind }), body: false },
  color: { base: (kind) => ({ type: 'card.color', kind }), body: true },
  annotations: { base: (kind) => ({ type: 'card.annotations', kind }), body: true },
  move: { base: (kind) => ({ type: `${kind}.move` }), body: true },
  estimate: { base: () => ({ type: 'feature.estimate' }), body: true, only: 'feature' },
}

function operation(kindSegment: string | undefined, op: string | undefined) {
  const kind = cardKindOfPath(kindSegment)
  const found = op && Object.hasOwn(OPERATIONS, op) ? OPERATIONS[op] : undefined
  if (!found || (found.only && found.only !== kind)) throw refuse.notFound('No such API route.', 'not_found')
  return { kind, ...found }
}

function wrongMethod({ params }: { params: { kind?: string; op?: string } }) {
  operation(params.kind, params.op) // an unknown route is 404 whatever the method
  return apiError(405, 'method_not_allowed', 'This method is not allowed here.')
}

const route = v1Route({
  POST: ({ request, params }) => {
    const { kind, base, body } = operation(params.kind, params.op)
    return runBoardCommand(request, params.id, base(kind), { body })
  },
  GET: wrongMethod,
  PUT: wrongMethod,
  DELETE: wrongMethod,
})
export const loader = route.loader
export const action = route.action
