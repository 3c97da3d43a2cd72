import { setPasswordSchema } from '~/domain/account-forms'
import { setPasswordWithKey } from '~/models/account-settings.server'
import { parseJson, v1Route } from '~/utils/api.server'

const route = v1Route({
  POST: async ({ request }) => {
    const { key, password } = await parseJson(
      request,
      setPasswordSchema,
      {},
      { password_invalid: 'Password is invalid.' },
    )
    await setPasswordWithKey(key, password)
    return {}
  },
})
export const loader = route.loader
export const action = route.action
