import type { Route } from './+types/v1.assistant.draft-map'
import { draftMapRequestSchema, wantsDraftStream } from '~/features/assistant'
import { admitAssistantRequest, draftMapAnswer, draftMapStream } from '~/features/assistant/index.server'
import { parseJson, requireApiWorkspace, v1Route } from '~/http/api.server'
import { getEnv } from '~/lib/env.server'
import { disconnectSignal, whileConnected } from '~/http/disconnect.server'

/**
 * `Draft a map` (CONTRACT §16): a product description → a map in the §8 JSON shape, written
 * nowhere; with `Accept: application/x-ndjson`, streamed as it comes (assistant.server.ts).
 */
const route = v1Route<Route.LoaderArgs>({
  POST: async ({ request, context }) => {
    const ctx = await requireApiWorkspace(request)
    const config = await admitAssistantRequest(ctx, getEnv())
    const { description } = await parseJson(request, draftMapRequestSchema)
    const signal = disconnectSignal(context)
    if (wantsDraftStream(request)) return draftMapStream(config, description, signal)
    return whileConnected(signal, () => draftMapAnswer(config, description, { signal }))
  },
})
export const loader = route.loader
export const action = route.action
