import type { Route } from './+types/v1.webhooks.$id'
import { deleteWebhook } from '~/features/automation/webhook.server'
import { pathId, requireApiWorkspace, v1Route } from '~/http/api.server'

/** Deletes a webhook endpoint, its queue and its log. */
const route = v1Route<Route.LoaderArgs>({
  DELETE: async ({ request, params }) => {
    deleteWebhook(await requireApiWorkspace(request), pathId(params.id))
    return {}
  },
})
export const loader = route.loader
export const action = route.action
