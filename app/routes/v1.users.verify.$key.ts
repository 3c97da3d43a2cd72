import { publicAccount } from '~/models/account.server'
import { verifyEmail } from '~/models/account-settings.server'
import { v1Route } from '~/utils/api.server'

const route = v1Route({
  POST: ({ params }) => publicAccount(verifyEmail(params.key ?? '')),
})
export const loader = route.loader
export const action = route.action
