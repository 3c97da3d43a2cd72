import type { Route } from './+types/v1.projects.$id.activity'
import { z } from 'zod'
import { refuse } from '~/lib/errors'
import { listActivity } from '~/features/history/history.server'
import { pathId, requireApiWorkspace, v1Route } from '~/http/api.server'

const querySchema = z.object({
  before: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
})

/** GET /v1/projects/{id}/activity?before=&limit=: the project's changes, newest first (CONTRACT §7). */
const route = v1Route<Route.LoaderArgs>({
  GET: async ({ request, params }) => {
    const ctx = await requireApiWorkspace(request)
    const projectId = pathId(params.id)
    const query = Object.fromEntries(new URL(request.url).searchParams)
    const parsed = querySchema.safeParse(query)
    if (!parsed.success) {
      const field = String(parsed.error.issues[0].path[0] ?? 'query')
      throw refuse.invalid(
        `${field}_invalid`,
        field === 'limit' ? 'limit must be a whole number 1–100.' : 'before must be a version number.',
      )
    }
    return listActivity(ctx, projectId, parsed.data.before ?? null, parsed.data.limit)
  },
})
export const loader = route.loader
export const action = route.action
