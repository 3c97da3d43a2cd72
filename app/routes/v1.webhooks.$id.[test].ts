import type { Route } from './+types/v1.webhooks.$id.[test]'
import { sendTestPing } from '~/features/automation/webhook.server'
import { pathId, requireApiWorkspace, v1Route } from '~/http/api.server'

/** Sends a `ping` to the endpoint now and answers how it went. */
const route = v1Route<Route.LoaderArgs>({
  POST: async ({ request, params }) => ({
    delivery: await sendTestPing(await requireApiWorkspace(request), pathId(params.id)),
  }),
})
export const loader = route.loader
export const action = route.action
