import type { Route } from './+types/v1.account.delete'
import { deleteAccount } from '~/features/accounts/account-settings.server'
import { destroySession } from '~/features/accounts/session.server'
import { requireApiAccount, v1Route } from '~/http/api.server'

const route = v1Route<Route.LoaderArgs>({
  POST: async ({ request }) => {
    deleteAccount(await requireApiAccount(request))
    return Response.json({}, { headers: { 'Set-Cookie': await destroySession(request) } })
  },
})
export const loader = route.loader
export const action = route.action
