import type { Route } from './+types/v1.account.nameupdate'
import { nameChangeSchema } from '~/features/accounts/account-forms'
import { publicAccount } from '~/features/accounts/account.server'
import { changeName } from '~/features/accounts/account-settings.server'
import { parseJson, requireApiAccount, v1Route } from '~/http/api.server'

const route = v1Route<Route.LoaderArgs>({
  POST: async ({ request }) => {
    const account = await requireApiAccount(request)
    const { name } = await parseJson(request, nameChangeSchema, {}, { name_invalid: 'Name is invalid.' })
    return publicAccount(changeName(account, name))
  },
})
export const loader = route.loader
export const action = route.action
