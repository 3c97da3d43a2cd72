import type { Route } from './+types/v1.account.tokens.$id'
import { revokeAccountToken } from '~/features/automation/api-token.server'
import { pathId, requireApiAccount, v1Route } from '~/http/api.server'

/** Revokes one of the caller's API tokens, at once. */
const route = v1Route<Route.LoaderArgs>({
  DELETE: async ({ request, params }) => {
    revokeAccountToken((await requireApiAccount(request)).id, pathId(params.id))
    return {}
  },
})
export const loader = route.loader
export const action = route.action
