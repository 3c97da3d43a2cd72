import type { Route } from './+types/v1.webhooks'
import { createWebhookSchema } from '~/features/automation/webhooks'
import { createWebhook, listWebhooks } from '~/features/automation/webhook.server'
import { parseJson, requireApiWorkspace, v1Route } from '~/http/api.server'

/** The workspace's webhook endpoints (CONTRACT §10): list, and register one; its secret is in that answer only. */
const route = v1Route<Route.LoaderArgs>({
  GET: async ({ request }) => ({ webhooks: listWebhooks(await requireApiWorkspace(request)) }),
  POST: async ({ request }) => {
    const ctx = await requireApiWorkspace(request)
    const input = await parseJson(request, createWebhookSchema, { url: 'url_invalid' })
    return Response.json(await createWebhook(ctx, input), {
      status: 201,
      headers: { 'Cache-Control': 'no-store' },
    })
  },
})
export const loader = route.loader
export const action = route.action
