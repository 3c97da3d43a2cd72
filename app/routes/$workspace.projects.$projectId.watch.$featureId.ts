import type { Route } from './+types/$workspace.projects.$projectId.watch.$featureId'
import { refuse } from '~/lib/errors'
import { setWatching, watchState } from '~/features/notifications/notifications.server'
import { pathId, readJson, requireApiWorkspaceNamed, v1Route } from '~/http/api.server'

/**
 * The card dialog's Watch / Unwatch (CONTRACT §12): GET answers `{"watching"}` for the caller;
 * POST `{"watching": true|false}` sets it. Any member may watch, viewers included.
 */
const route = v1Route<Route.LoaderArgs>({
  GET: async ({ request, params }) => {
    const ctx = await requireApiWorkspaceNamed(request, params.workspace)
    return { watching: watchState(ctx.workspace.id, ctx.member.id, pathId(params.featureId, 'featureId')) }
  },
  POST: async ({ request, params }) => {
    const ctx = await requireApiWorkspaceNamed(request, params.workspace)
    const body = (await readJson(request)) as { watching?: unknown }
    if (typeof body?.watching !== 'boolean')
      throw refuse.invalid('invalid_input', 'watching must be true or false.', 'watching')
    const featureId = pathId(params.featureId, 'featureId')
    setWatching(ctx.workspace.id, ctx.member.id, featureId, body.watching)
    return { watching: body.watching }
  },
})
export const loader = route.loader
export const action = route.action
