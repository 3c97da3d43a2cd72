import type { Route } from './+types/v1.members.$id'
import { removeMember } from '~/features/workspaces/member.server'
import { pathId, requireApiWorkspace, v1Route } from '~/http/api.server'

const route = v1Route<Route.LoaderArgs>({
  DELETE: async ({ request, params }) => {
    removeMember(await requireApiWorkspace(request), pathId(params.id))
    return {}
  },
})
export const loader = route.loader
export const action = route.action
