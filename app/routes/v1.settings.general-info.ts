import type { Route } from './+types/v1.settings.general-info'
import { billingInfoSchema } from '~/features/billing/billing'
import { requireBillingOwner, updateBillingInfo } from '~/features/billing/billing.server'
import { parseJson, requireApiWorkspace, v1Route } from '~/http/api.server'

/** Billing information (hosted mode, OWNER): the billing e-mail and EU VAT number. */
const route = v1Route<Route.LoaderArgs>({
  POST: async ({ request }) => {
    const ctx = await requireApiWorkspace(request)
    requireBillingOwner(ctx)
    return updateBillingInfo(ctx, await parseJson(request, billingInfoSchema))
  },
})
export const loader = route.loader
export const action = route.action
