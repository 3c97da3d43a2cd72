import type { Route } from './+types/v1.account.app'
import { getAppState } from '~/features/accounts/account.server'
import { requireApiAccount, v1Route } from '~/http/api.server'

const route = v1Route<Route.LoaderArgs>({
  GET: async ({ request }) => getAppState(await requireApiAccount(request)),
})
export const loader = route.loader
export const action = route.action
