import type { Route } from './+types/v1.link.$key.events'
import { refuse } from '~/lib/errors'
import { linkStreamAccess, sharedProjectId } from '~/features/live/live-access.server'
import { v1Route } from '~/http/api.server'
import { openLiveStream, sinceOf } from '~/features/live/live-stream.server'

/** GET /v1/link/{key}/events: the live changes of a shared map, while sharing is on (CONTRACT §6). */
const route = v1Route<Route.LoaderArgs>({
  GET: ({ request, params, context }) => {
    const key = params.key ?? ''
    const since = sinceOf(request)
    const projectId = sharedProjectId(key)
    if (!projectId) throw refuse.notFound('Project not found.', 'not_found')
    return openLiveStream({
      projectId,
      sessionId: null,
      viewer: null,
      access: null,
      since,
      onDisconnect: context.onDisconnect,
      check: () => linkStreamAccess(key, projectId),
    })
  },
})
export const loader = route.loader
export const action = route.action
