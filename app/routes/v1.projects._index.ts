import type { Route } from './+types/v1.projects._index'
import { listProjects } from '~/features/map/project.server'
import { requireApiWorkspace, v1Route } from '~/http/api.server'

const route = v1Route<Route.LoaderArgs>({
  GET: async ({ request }) => {
    const ctx = await requireApiWorkspace(request)
    return listProjects(ctx.workspace.id)
  },
})
export const loader = route.loader
export const action = route.action
