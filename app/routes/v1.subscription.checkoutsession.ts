import { checkoutSchema } from '~/domain/billing'
import { countEditors, requireBillingOwner, startCheckout } from '~/models/billing.server'
import { getDb } from '~/db/db.server'
import { parseJson, requireApiWorkspace, v1Route } from '~/utils/api.server'

/** Starts a Stripe Checkout Session; the browser then goes to `url`. */
const route = v1Route({
  POST: async ({ request }) => {
    const ctx = await requireApiWorkspace(request)
    requireBillingOwner(ctx)
    const input = await parseJson(request, checkoutSchema(countEditors(getDb(), ctx.workspace.id)))
    return startCheckout(ctx, input)
  },
})
export const loader = route.loader
export const action = route.action
