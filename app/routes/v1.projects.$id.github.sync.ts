import type { Route } from './+types/v1.projects.$id.github.sync'
import { syncNow } from '~/features/trackers/index.server'
import { pathId, requireApiWorkspace, v1Route } from '~/http/api.server'

/** `Sync now` (CONTRACT §13): polls GitHub at once and answers `{pulled, lastSyncAt}` when done (EDITOR and up). */
const route = v1Route<Route.LoaderArgs>({
  POST: async ({ request, params }) => syncNow(await requireApiWorkspace(request), pathId(params.id)),
})
export const loader = route.loader
export const action = route.action
