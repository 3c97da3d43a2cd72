import type { Route } from './+types/v1.invites'
import { inviteSchema } from '~/features/workspaces/workspace-forms'
import { createInvite, listInvites } from '~/features/workspaces/invite.server'
import { parseJson, requireApiWorkspace, v1Route } from '~/http/api.server'

const route = v1Route<Route.LoaderArgs>({
  GET: async ({ request }) => listInvites(await requireApiWorkspace(request)),
  POST: async ({ request }) => {
    const ctx = await requireApiWorkspace(request)
    const input = await parseJson(request, inviteSchema)
    return (await createInvite(ctx, input)).invite
  },
})
export const loader = route.loader
export const action = route.action
