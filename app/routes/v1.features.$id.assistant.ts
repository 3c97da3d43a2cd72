import type { Route } from './+types/v1.features.$id.assistant'
import { featureAssistantRequestSchema } from '~/features/assistant'
import { admitAssistantRequest, featureSuggestions } from '~/features/assistant/index.server'
import { parseJson, pathId, requireApiWorkspace, v1Route } from '~/http/api.server'
import { getEnv } from '~/lib/env.server'
import { disconnectSignal, whileConnected } from '~/http/disconnect.server'

/** `Suggest` in a feature's dialog (CONTRACT §16): smaller features or acceptance criteria, written nowhere. */
const route = v1Route<Route.LoaderArgs>({
  POST: async ({ request, params, context }) => {
    const ctx = await requireApiWorkspace(request)
    const config = await admitAssistantRequest(ctx, getEnv())
    const id = pathId(params.id)
    const { action } = await parseJson(request, featureAssistantRequestSchema)
    const signal = disconnectSignal(context)
    return whileConnected(signal, () => featureSuggestions(ctx, config, id, action, { signal }))
  },
})
export const loader = route.loader
export const action = route.action
