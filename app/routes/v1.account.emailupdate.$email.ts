import { emailChangeSchema } from '~/domain/account-forms'
import { refuse } from '~/domain/errors'
import { requestEmailChange } from '~/models/account-settings.server'
import { requireApiAccount, v1Route } from '~/utils/api.server'

const route = v1Route({
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
