import type { Route } from './+types/v1.settings.allow-external-sharing'
import { z } from 'zod'
import { setAllowExternalSharing } from '~/features/workspaces/sharing.server'
import { parseJson, requireApiWorkspace, v1Route } from '~/http/api.server'

const schema = z.object({ value: z.boolean() })

const route = v1Route<Route.LoaderArgs>({
  POST: async ({ request }) => {
    const ctx = await requireApiWorkspace(request)
    const { value } = await parseJson(request, schema)
    return setAllowExternalSharing(ctx, value)
  },
})
export const loader = route.loader
export const action = route.action
