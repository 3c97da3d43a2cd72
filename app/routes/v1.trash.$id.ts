import type { Route } from './+types/v1.trash.$id'
import { purgeFromTrash } from '~/features/history/trash.server'
import { pathId, requireApiWorkspace, v1Route } from '~/http/api.server'

/** DELETE /v1/trash/{id}: deletes a trash entry for good (CONTRACT §7). */
const route = v1Route<Route.LoaderArgs>({
  DELETE: async ({ request, params }) =>
    purgeFromTrash(await requireApiWorkspace(request), pathId(params.id)),
})
export const loader = route.loader
export const action = route.action
