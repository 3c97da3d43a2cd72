import type { Route } from './+types/v1.users.invite.$key'
import { acceptInvitation, getInvitation } from '~/features/workspaces/invite.server'
import { requireApiAccount, v1Route } from '~/http/api.server'

const route = v1Route<Route.LoaderArgs>({
  GET: ({ params }) => getInvitation(params.key ?? ''),
  POST: async ({ request, params }) => acceptInvitation(await requireApiAccount(request), params.key ?? ''),
})
export const loader = route.loader
export const action = route.action
