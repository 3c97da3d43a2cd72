import type { Route } from './+types/v1.projects.$id.sharing'
import { z } from 'zod'
import { getProjectSharing, setProjectSharing } from '~/features/workspaces/sharing.server'
import { parseJson, pathId, requireApiWorkspace, v1Route } from '~/http/api.server'

const sharingSchema = z.object({ enabled: z.boolean() })

/**
 * GET /v1/projects/{id}/sharing: `{enabled, externalLink}` for any member; POST {enabled}
 * stops or restarts the project's share link (ADMIN, OWNER; CONTRACT §8).
 */
const route = v1Route<Route.LoaderArgs>({
  GET: async ({ request, params }) => {
    const ctx = await requireApiWorkspace(request)
    return getProjectSharing(ctx, pathId(params.id))
  },
  POST: async ({ request, params }) => {
    const ctx = await requireApiWorkspace(request)
    const projectId = pathId(params.id)
    const { enabled } = await parseJson(
      request,
      sharingSchema,
      {},
      { enabled_invalid: 'enabled must be true or false.' },
    )
    return setProjectSharing(ctx, projectId, enabled)
  },
})
export const loader = route.loader
export const action = route.action
