import { nameChangeSchema } from '~/domain/account-forms'
import { publicAccount } from '~/models/account.server'
import { changeName } from '~/models/account-settings.server'
import { parseJson, requireApiAccount, v1Route } from '~/utils/api.server'

const route = v1Route({
  POST: async ({ request }) => {
    const account = await requireApiAccount(request)
    const { name } = await parseJson(request, nameChangeSchema, {}, { name_invalid: 'Name is invalid.' })
    return publicAccount(changeName(account, name))
  },
})
export const loader = route.loader
export const action = route.action
