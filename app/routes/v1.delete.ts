import { deleteWorkspace } from '~/features/workspaces/member.server'
import { requireApiWorkspace, v1Route } from '~/http/api.server'

const route = v1Route({
  POST: async ({ request }) => {
    deleteWorkspace(await requireApiWorkspace(request))
    return {}
  },
})
export const loader = route.loader
export const action = route.action
