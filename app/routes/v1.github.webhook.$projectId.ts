import type { Route } from './+types/v1.github.webhook.$projectId'
import { receiveGithubWebhook, WebhookRefused } from '~/features/trackers/index.server'
import { apiError, v1Route } from '~/http/api.server'

/** GitHub's `issues` webhooks for a linked project (CONTRACT §13), signature-checked; `ping` answers 200. */
const route = v1Route<Route.LoaderArgs>({
  POST: async ({ request, params }) => {
    try {
      return await receiveGithubWebhook(params.projectId, await request.text(), request.headers)
    } catch (error) {
      if (error instanceof WebhookRefused)
        return apiError(401, 'signature_invalid', 'The signature is missing or wrong.')
      throw error
    }
  },
})
export const loader = route.loader
export const action = route.action
