import type { Route } from './+types/v1.delete'
import { deleteWorkspace } from '~/features/workspaces/member.server'
import { requireApiWorkspace, v1Route } from '~/http/api.server'

const route = v1Route<Route.LoaderArgs>({
  POST: async ({ request }) => {
    deleteWorkspace(await requireApiWorkspace(request))
    return {}
  },
})
export const loader = route.loader
export const action = route.action
