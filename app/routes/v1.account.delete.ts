import { deleteAccount } from '~/models/account-settings.server'
import { destroySession } from '~/models/session.server'
import { requireApiAccount, v1Route } from '~/utils/api.server'

const route = v1Route({
  POST: async ({ request }) => {
    deleteAccount(await requireApiAccount(request))
    return Response.json({}, { headers: { 'Set-Cookie': await destroySession(request) } })
  },
})
export const loader = route.loader
export const action = route.action
