import type { Route } from './+types/v1.users.verify.$key'
import { publicAccount } from '~/features/accounts/account.server'
import { verifyEmail } from '~/features/accounts/account-settings.server'
import { v1Route } from '~/http/api.server'

const route = v1Route<Route.LoaderArgs>({
  POST: ({ params }) => publicAccount(verifyEmail(params.key ?? '')),
})
export const loader = route.loader
export const action = route.action
