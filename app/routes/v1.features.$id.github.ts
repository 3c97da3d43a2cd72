import type { Route } from './+types/v1.features.$id.github'
import { createIssueForFeature } from '~/features/trackers/index.server'
import { pathId, requireApiWorkspace, v1Route } from '~/http/api.server'

/** `Create GitHub issue` (CONTRACT §13): the feature with its new `github` (EDITOR and up). */
const route = v1Route<Route.LoaderArgs>({
  POST: async ({ request, params }) => {
    return createIssueForFeature(await requireApiWorkspace(request), pathId(params.id))
  },
})
export const loader = route.loader
export const action = route.action
