import type { Route } from './+types/v1.github.webhook.$projectId'
import { receiveGithubWebhook, SignatureRefused } from '~/features/github/github-webhook.server'
import { apiError, v1Route } from '~/http/api.server'

/** GitHub's `issues` webhooks for a linked project (CONTRACT §13), signature-checked; `ping` answers 200. */
const route = v1Route<Route.LoaderArgs>({
  POST: async ({ request, params }) => {
    try {
      return await receiveGithubWebhook(params.projectId, await request.text(), request.headers)
    } catch (error) {
      if (error instanceof SignatureRefused) return apiError(401, 'signature_invalid', error.message)
      throw error
    }
  },
})
export const loader = route.loader
export const action = route.action
