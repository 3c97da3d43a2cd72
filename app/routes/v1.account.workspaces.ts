import type { Route } from './+types/v1.account.workspaces'
import { CREATE_WORKSPACE_ERROR_TEXT, createWorkspaceSchema } from '~/lib/validation'
import { createWorkspace } from '~/features/workspaces/workspace.server'
import { parseJson, requireApiAccount, v1Route } from '~/http/api.server'

const route = v1Route<Route.LoaderArgs>({
  POST: async ({ request }) => {
    const account = await requireApiAccount(request)
    const { name } = await parseJson(request, createWorkspaceSchema, {}, CREATE_WORKSPACE_ERROR_TEXT)
    return createWorkspace(account.id, name)
  },
})
export const loader = route.loader
export const action = route.action
