import { acceptInvitation, getInvitation } from '~/features/workspaces/invite.server'
import { requireApiAccount, v1Route } from '~/http/api.server'

const route = v1Route({
  GET: ({ params }) => getInvitation(params.key ?? ''),
  POST: async ({ request, params }) => acceptInvitation(await requireApiAccount(request), params.key ?? ''),
})
export const loader = route.loader
export const action = route.action
