import type { Route } from './+types/v1.members.$id.level'
import { levelChangeSchema } from '~/features/workspaces/workspace-forms'
import { changeMemberLevel } from '~/features/workspaces/member.server'
import { parseJson, pathId, requireApiWorkspace, v1Route } from '~/http/api.server'

const route = v1Route<Route.LoaderArgs>({
  POST: async ({ request, params }) => {
    const ctx = await requireApiWorkspace(request)
    const { level } = await parseJson(request, levelChangeSchema)
    changeMemberLevel(ctx, pathId(params.id), level)
    return {}
  },
})
export const loader = route.loader
export const action = route.action
