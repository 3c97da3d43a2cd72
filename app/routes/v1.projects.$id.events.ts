import type { Route } from './+types/v1.projects.$id.events'
import { refuse } from '~/lib/errors'
import { memberStreamAccess, tokenStreamAccess } from '~/features/live/live-access.server'
import { getLiveSession } from '~/features/accounts/session.server'
import { pathId, tokenAuthOf, v1Route } from '~/http/api.server'
import { openLiveStream, sinceOf } from '~/features/live/live-stream.server'

/** GET /v1/projects/{id}/events: the project's live changes and presence, for any member (CONTRACT §6). */
const route = v1Route<Route.LoaderArgs>({
  GET: async ({ request, params, context }) => {
    const projectId = pathId(params.id)
    const token = tokenAuthOf(request)
    const session = token ? null : await getLiveSession(request)
    if (!token && !session) throw refuse.unauthorized()
    const check = token
      ? () => tokenStreamAccess(token.tokenId, projectId)
      : () => memberStreamAccess(session!.id, projectId)
    const since = sinceOf(request)
    const access = check()
    // Not a member of its workspace looks the same as no such project.
    if (!access.ok) throw refuse.notFound('Project not found.', 'project_not_found')
    return openLiveStream({
      projectId,
      sessionId: session?.id ?? null,
      viewer: access.viewer,
      access: access.access ?? null,
      since,
      onDisconnect: context.onDisconnect,
      check,
    })
  },
})
export const loader = route.loader
export const action = route.action
