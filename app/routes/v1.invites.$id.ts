import { cancelInvite } from '~/models/invite.server'
import { pathId, requireApiWorkspace, v1Route } from '~/utils/api.server'

const route = v1Route({
  DELETE: async ({ request, params }) => {
    cancelInvite(await requireApiWorkspace(request), pathId(params.id))
    return {}
  },
})
export const loader = route.loader
export const action = route.action
