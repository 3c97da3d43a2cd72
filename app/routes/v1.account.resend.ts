import type { Route } from './+types/v1.account.resend'
import { resendVerification } from '~/features/accounts/account-settings.server'
import { requireApiAccount, v1Route } from '~/http/api.server'

const route = v1Route<Route.LoaderArgs>({
  POST: async ({ request }) => {
    await resendVerification(await requireApiAccount(request))
    return {}
  },
})
export const loader = route.loader
export const action = route.action
