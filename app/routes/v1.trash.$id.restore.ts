import type { Route } from './+types/v1.trash.$id.restore'
import { restoreFromTrash } from '~/features/history/trash.server'
import { pathId, requireApiWorkspace, v1Route } from '~/http/api.server'

/** POST /v1/trash/{id}/restore: puts it back where it was and answers it (CONTRACT §7). */
const route = v1Route<Route.LoaderArgs>({
  POST: async ({ request, params }) =>
    restoreFromTrash(await requireApiWorkspace(request), pathId(params.id)),
})
export const loader = route.loader
export const action = route.action
