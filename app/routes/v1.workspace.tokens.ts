import type { Route } from './+types/v1.workspace.tokens'
import { listWorkspaceTokens } from '~/features/automation/api-token.server'
import { requireApiWorkspace, v1Route } from '~/http/api.server'

/** Every member's API tokens of the workspace, for its owners and admins. */
const route = v1Route<Route.LoaderArgs>({
  GET: async ({ request }) => ({ tokens: listWorkspaceTokens(await requireApiWorkspace(request)) }),
})
export const loader = route.loader
export const action = route.action
