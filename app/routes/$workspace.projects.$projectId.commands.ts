import type { Route } from './+types/$workspace.projects.$projectId.commands'
import { isPageOnlyCommand, parsePageCommand, type PageOnlyCommand } from '~/features/board/page-commands'
import { refuse } from '~/lib/errors'
import { executeBoardCommand } from '~/features/board/board.server'
import { redo, stateAfterEdit, undo } from '~/features/history/history.server'
import { purgeFromTrash, restoreFromTrash } from '~/features/history/trash.server'
import { setWatching } from '~/features/notifications/notifications.server'
import type { WorkspaceContext } from '~/features/workspaces/workspace.server'
import { pathId, readJson, requireApiWorkspaceNamed, v1Route } from '~/http/api.server'

/**
 * POST `/{workspace}/projects/{id}/commands`: every write of the board page, as a JSON command
 * (app/features/board/page-commands.ts), sent one at a time by the page's outbox
 * (app/features/board/ui/board-outbox.ts), and again after a lost answer. Answers `{"ok": true, …}`
 * (`entity` and, for a board command on a project of this workspace, the project's `version` and
 * the member's `history` after it, or `redirectTo` after the project itself is deleted; `version` and `summary` for undo and
 * redo; `watching`) or the /v1 error shape.
 */
const route = v1Route<Route.LoaderArgs>({
  POST: async ({ request, params }) => {
    const ctx = await requireApiWorkspaceNamed(request, params.workspace)
    const projectId = pathId(params.projectId, 'projectId')
    const parsed = parsePageCommand(await readJson(request))
    if (!parsed.ok) throw refuse.invalid(parsed.code, parsed.message, parsed.field)
    const command = parsed.command
    if (isPageOnlyCommand(command)) return { ok: true, ...runPageOnly(ctx, projectId, command) }
    const entity = executeBoardCommand(ctx, command)
    const projectDeleted = command.type === 'card.delete' && command.kind === 'project'
    if (projectDeleted) return { ok: true, entity, redirectTo: `/${ctx.workspace.name}` }
    return { ok: true, entity, ...stateAfterEdit(ctx, projectId) }
  },
})
export const action = route.action

function runPageOnly(ctx: WorkspaceContext, projectId: string, command: PageOnlyCommand) {
  switch (command.type) {
    case 'history.undo':
      return undo(ctx, projectId, command.requestId)
    case 'history.redo':
      return redo(ctx, projectId, command.requestId)
    case 'trash.restore':
      return { entity: restoreFromTrash(ctx, command.id) }
    case 'trash.purge':
      return purgeFromTrash(ctx, command.id)
    case 'feature.watch':
      setWatching(ctx.workspace.id, ctx.member.id, command.featureId, command.watching)
      return { watching: command.watching }
  }
}
