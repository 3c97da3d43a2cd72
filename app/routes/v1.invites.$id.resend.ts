import type { Route } from './+types/v1.invites.$id.resend'
import { resendInvite } from '~/features/workspaces/invite.server'
import { pathId, requireApiWorkspace, v1Route } from '~/http/api.server'

const route = v1Route<Route.LoaderArgs>({
  POST: async ({ request, params }) =>
    (await resendInvite(await requireApiWorkspace(request), pathId(params.id))).invite,
})
export const loader = route.loader
export const action = route.action
