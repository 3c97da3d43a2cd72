import type { Route } from './+types/v1.projects.$id.github'
import { linkRepositorySchema, LINK_FIELD_CODES } from '~/features/trackers'
import { getRepositoryLink, linkRepository, unlinkRepository } from '~/features/trackers/index.server'
import { authorize } from '~/features/map/door.server'
import { parseJson, pathId, requireApiWorkspace, v1Route } from '~/http/api.server'

/**
 * The project's GitHub repository (CONTRACT §13): GET for any member; PUT links or relinks and
 * DELETE unlinks (OWNER, ADMIN, active plan). The token is never in an answer; the webhook
 * secret only in PUT's.
 */
const route = v1Route<Route.LoaderArgs>({
  GET: async ({ request, params }) =>
    getRepositoryLink(await requireApiWorkspace(request), pathId(params.id)),
  PUT: async ({ request, params }) => {
    const ctx = await requireApiWorkspace(request)
    const projectId = pathId(params.id)
    authorize(ctx, 'linkTracker')
    const input = await parseJson(request, linkRepositorySchema, LINK_FIELD_CODES)
    return Response.json(await linkRepository(ctx, projectId, input), {
      headers: { 'Cache-Control': 'no-store' },
    })
  },
  DELETE: async ({ request, params }) =>
    unlinkRepository(await requireApiWorkspace(request), pathId(params.id)),
})
export const loader = route.loader
export const action = route.action
