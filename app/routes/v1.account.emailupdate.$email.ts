import type { Route } from './+types/v1.account.emailupdate.$email'
import { emailChangeSchema } from '~/features/accounts/account-forms'
import { refuse } from '~/lib/errors'
import { requestEmailChange } from '~/features/accounts/account-settings.server'
import { requireApiAccount, v1Route } from '~/http/api.server'

const route = v1Route<Route.LoaderArgs>({
  POST: async ({ request, params }) => {
    const account = await requireApiAccount(request)
    const parsed = emailChangeSchema.safeParse({ email: params.email })
    if (!parsed.success) throw refuse.invalid('email_invalid', 'Email is invalid.')
    await requestEmailChange(account, parsed.data.email)
    return {}
  },
})
export const loader = route.loader
export const action = route.action
