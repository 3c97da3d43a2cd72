import type { Route } from './+types/v1.subscription.change'
import { planChangeSchema } from '~/features/billing/billing'
import { changePlan, requireBillingOwner, workspaceEditorCount } from '~/features/billing/billing.server'
import { parseJson, requireApiWorkspace, v1Route } from '~/http/api.server'

/** Changes the editor count or plan of a running paid plan, or cancels it at the period end. */
const route = v1Route<Route.LoaderArgs>({
  POST: async ({ request }) => {
    const ctx = await requireApiWorkspace(request)
    requireBillingOwner(ctx)
    const input = await parseJson(request, planChangeSchema(workspaceEditorCount(ctx.workspace.id)))
    return changePlan(ctx, input)
  },
})
export const loader = route.loader
export const action = route.action
