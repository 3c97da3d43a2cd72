import type { Route } from './+types/v1.workspace.tokens.$id'
import { revokeWorkspaceToken } from '~/features/automation/api-token.server'
import { pathId, requireApiWorkspace, v1Route } from '~/http/api.server'

/** An owner or admin revokes a member's API token of the workspace. */
const route = v1Route<Route.LoaderArgs>({
  DELETE: async ({ request, params }) => {
    revokeWorkspaceToken(await requireApiWorkspace(request), pathId(params.id))
    return {}
  },
})
export const loader = route.loader
export const action = route.action
