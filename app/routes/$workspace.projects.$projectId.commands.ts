import { parseBoardCommand } from '~/features/board/board-commands'
import { refuse } from '~/lib/errors'
import { executeBoardCommand } from '~/features/board/board.server'
import { readJson, requireApiWorkspaceNamed, v1Route } from '~/http/api.server'

/**
 * POST `/{workspace}/projects/{id}/commands`: one board write as a JSON command, run by the same
 * model as the /v1 API. The board's outbox (app/features/board/ui/board-outbox.ts) sends its writes
 * here one at a time and again after a lost answer. Answers `{"ok": true, "entity"}` (and
 * `redirectTo` after the project itself is deleted) or the /v1 error shape.
 */
const route = v1Route({
  POST: async ({ request, params }) => {
    const ctx = await requireApiWorkspaceNamed(request, params.workspace)
    const parsed = parseBoardCommand(await readJson(request))
    if (!parsed.ok) throw refuse.invalid(parsed.code, parsed.message, parsed.field)
    const entity = executeBoardCommand(ctx, parsed.command)
    const command = parsed.command
    const projectDeleted = command.type === 'card.delete' && command.kind === 'project'
    return { ok: true, entity, ...(projectDeleted ? { redirectTo: `/${ctx.workspace.name}` } : {}) }
  },
})
export const action = route.action
