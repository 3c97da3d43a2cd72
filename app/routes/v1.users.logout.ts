import type { Route } from './+types/v1.users.logout'
import { destroySession } from '~/features/accounts/session.server'
import { v1Route } from '~/http/api.server'

const route = v1Route<Route.LoaderArgs>({
  POST: async ({ request }) =>
    Response.json({}, { headers: { 'Set-Cookie': await destroySession(request) } }),
})
export const loader = route.loader
export const action = route.action
