import type { Route } from './+types/$workspace.commands'
import { parsePageCommand } from '~/features/board/page-commands'
import { refuse } from '~/lib/errors'
import { purgeFromTrash, restoreFromTrash } from '~/features/history/trash.server'
import { readJson, requireApiWorkspaceNamed, v1Route } from '~/http/api.server'

/**
 * POST `/{workspace}/commands`: the writes of the workspace's project list page that are not
 * forms (the workspace trash's Restore and Delete forever), sent by the page's outbox like the
 * board's. Answers `{"ok": true, …}` or the /v1 error shape.
 */
const route = v1Route<Route.LoaderArgs>({
  POST: async ({ request, params }) => {
    const ctx = await requireApiWorkspaceNamed(request, params.workspace)
    const parsed = parsePageCommand(await readJson(request))
    if (!parsed.ok) throw refuse.invalid(parsed.code, parsed.message, parsed.field)
    const command = parsed.command
    if (command.type === 'trash.restore') return { ok: true, entity: restoreFromTrash(ctx, command.id) }
    if (command.type === 'trash.purge') return { ok: true, ...purgeFromTrash(ctx, command.id) }
    throw refuse.invalid('type_invalid', 'This page sends only Restore and Delete forever.', 'type')
  },
})
export const action = route.action
