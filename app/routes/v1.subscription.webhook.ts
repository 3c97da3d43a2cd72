import type { Route } from './+types/v1.subscription.webhook'
import { handleStripeWebhook } from '~/features/billing/stripe-webhook.server'
import { v1Route } from '~/http/api.server'

/** Stripe's events; no session and no Origin check: the signature is the authentication. */
const route = v1Route<Route.LoaderArgs>({
  POST: async ({ request }) =>
    handleStripeWebhook(await request.text(), request.headers.get('Stripe-Signature')),
})
export const loader = route.loader
export const action = route.action
