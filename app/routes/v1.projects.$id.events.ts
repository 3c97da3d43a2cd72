import { refuse } from '~/domain/errors'
import { memberStreamAccess } from '~/models/live-access.server'
import { getLiveSession } from '~/models/session.server'
import { pathId, v1Route } from '~/utils/api.server'
import { openLiveStream, sinceOf } from '~/utils/live-stream.server'

/** GET /v1/projects/{id}/events: the project's live changes and presence, for any member (CONTRACT §6). */
const route = v1Route({
  GET: async ({ request, params, context }) => {
    const session = await getLiveSession(request)
    if (!session) throw refuse.unauthorized()
    const projectId = pathId(params.id)
    const since = sinceOf(request)
    const access = memberStreamAccess(session.id, projectId)
    // Not a member of its workspace looks the same as no such project.
    if (!access.ok) throw refuse.notFound('Project not found.', 'project_not_found')
    return openLiveStream({
      projectId,
      sessionId: session.id,
      viewer: access.viewer,
      since,
      onDisconnect: context.onDisconnect,
      check: () => memberStreamAccess(session.id, projectId),
    })
  },
})
export const loader = route.loader
export const action = route.action
