import { acceptInvitation, getInvitation } from '~/models/invite.server'
import { requireApiAccount, v1Route } from '~/utils/api.server'

const route = v1Route({
  GET: ({ params }) => getInvitation(params.key ?? ''),
  POST: async ({ request, params }) => acceptInvitation(await requireApiAccount(request), params.key ?? ''),
})
export const loader = route.loader
export const action = route.action
