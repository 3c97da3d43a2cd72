import type { Route } from './+types/v1.users.reset.$email'
import { resetRequestSchema } from '~/features/accounts/account-forms'
import { refuse } from '~/lib/errors'
import { requestPasswordReset } from '~/features/accounts/account-settings.server'
import { v1Route } from '~/http/api.server'

/** Answers the same whether or not the address belongs to an account. */
const route = v1Route<Route.LoaderArgs>({
  POST: async ({ params }) => {
    const parsed = resetRequestSchema.safeParse({ email: params.email })
    if (!parsed.success) throw refuse.invalid('email_invalid', 'Email invalid.')
    await requestPasswordReset(parsed.data.email)
    return {}
  },
})
export const loader = route.loader
export const action = route.action
