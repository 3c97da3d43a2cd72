import type { Route } from './+types/v1.subscription.checkoutsession'
import { checkoutSchema } from '~/features/billing/billing'
import { requireBillingOwner, startCheckout, workspaceEditorCount } from '~/features/billing/billing.server'
import { parseJson, requireApiWorkspace, v1Route } from '~/http/api.server'

/** Starts a Stripe Checkout Session; the browser then goes to `url`. */
const route = v1Route<Route.LoaderArgs>({
  POST: async ({ request }) => {
    const ctx = await requireApiWorkspace(request)
    requireBillingOwner(ctx)
    const input = await parseJson(request, checkoutSchema(workspaceEditorCount(ctx.workspace.id)))
    return startCheckout(ctx, input)
  },
})
export const loader = route.loader
export const action = route.action
