import { deleteWebhook } from '~/features/automation/webhook.server'
import { pathId, requireApiWorkspace, v1Route } from '~/http/api.server'

/** Deletes a webhook endpoint, its queue and its log. */
const route = v1Route({
  DELETE: async ({ request, params }) => {
    deleteWebhook(await requireApiWorkspace(request), pathId(params.id))
    return {}
  },
})
export const loader = route.loader
export const action = route.action
