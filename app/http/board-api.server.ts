import { parseBoardCommand, type CardKind } from '~/features/board/board-commands'
import { CARD_KIND_OF_PATH } from '~/features/board/card-routes'
import { refuse } from '~/lib/errors'
import { executeBoardCommand } from '~/features/board/board.server'
import { authorize } from '~/features/map/door.server'
import { pathId, readJson, requireApiWorkspace } from './api.server'

export function cardKindOfPath(segment: string | undefined): CardKind {
  const kind = segment && Object.hasOwn(CARD_KIND_OF_PATH, segment) ? CARD_KIND_OF_PATH[segment] : undefined
  if (!kind) throw refuse.notFound('No such API route.', 'not_found')
  return kind
}

type Options = {
  /** Read the JSON body (calls whose body SPEC §7 gives as "none" ignore it). */
  body?: boolean
  /** Body field → command field, e.g. a comment edit sends its new text as `description`. */
  fields?: Record<string, string>
}

/**
 * The whole of a board write route: session and membership → path id → body → the shared
 * command schema → executeBoardCommand. `base` holds what the path fixes (type, kind, id) and
 * wins over anything the body says.
 */
export async function runBoardCommand(
  request: Request,
  idParam: string | undefined,
  base: Record<string, unknown>,
  options: Options = {},
) {
  const ctx = await requireApiWorkspace(request)
  // Refuse a caller who may not write before looking at what they sent (the model checks again).
  authorize(ctx, 'edit')
  const id = pathId(idParam)
  let body: Record<string, unknown> = {}
  if (options.body !== false) {
    const raw = await readJson(request)
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
      throw refuse.invalid('invalid_body', 'The request body must be a JSON object.')
    }
    body = { ...(raw as Record<string, unknown>) }
    for (const [from, to] of Object.entries(options.fields ?? {})) {
      body[to] = body[from]
      delete body[from]
    }
  }
  const parsed = parseBoardCommand({ ...body, ...base, id })
  if (!parsed.ok) {
    const renamed = Object.entries(options.fields ?? {}).find(([, to]) => to === parsed.field)
    const code = renamed ? `${renamed[0]}_invalid` : parsed.code
    throw refuse.invalid(code, parsed.message)
  }
  return executeBoardCommand(ctx, parsed.command)
}
