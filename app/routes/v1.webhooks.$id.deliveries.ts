import type { Route } from './+types/v1.webhooks.$id.deliveries'
import { listDeliveries } from '~/features/automation/webhook.server'
import { pathId, requireApiWorkspace, v1Route } from '~/http/api.server'

/** The endpoint's last 50 deliveries, newest first. */
const route = v1Route<Route.LoaderArgs>({
  GET: async ({ request, params }) => ({
    deliveries: listDeliveries(await requireApiWorkspace(request), pathId(params.id)),
  }),
})
export const loader = route.loader
export const action = route.action
