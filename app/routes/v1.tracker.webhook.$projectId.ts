import type { Route } from './+types/v1.tracker.webhook.$projectId'
import { receiveTrackerWebhook, WebhookRefused } from '~/features/trackers/tracker-webhook.server'
import { apiError, v1Route } from '~/http/api.server'

/** The one webhook entry (CONTRACT §14): GitLab's Issue Hook, Jira's signed admin webhook, GitHub's `issues` events. */
const route = v1Route<Route.LoaderArgs>({
  POST: async ({ request, params }) => {
    try {
      return await receiveTrackerWebhook(params.projectId, await request.text(), request.headers)
    } catch (error) {
      if (error instanceof WebhookRefused) return apiError(401, 'signature_invalid', error.message)
      throw error
    }
  },
})
export const loader = route.loader
export const action = route.action
