import { levelChangeSchema } from '~/domain/account-forms'
import { changeMemberLevel } from '~/models/member.server'
import { parseJson, pathId, requireApiWorkspace, v1Route } from '~/utils/api.server'

const route = v1Route({
  POST: async ({ request, params }) => {
    const ctx = await requireApiWorkspace(request)
    const { level } = await parseJson(request, levelChangeSchema)
    changeMemberLevel(ctx, pathId(params.id), level)
    return {}
  },
})
export const loader = route.loader
export const action = route.action
