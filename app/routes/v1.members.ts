import type { Route } from './+types/v1.members'
import { listMembers } from '~/features/workspaces/member.server'
import { requireApiWorkspace, v1Route } from '~/http/api.server'

const route = v1Route<Route.LoaderArgs>({
  GET: async ({ request }) => listMembers(await requireApiWorkspace(request)),
})
export const loader = route.loader
export const action = route.action
