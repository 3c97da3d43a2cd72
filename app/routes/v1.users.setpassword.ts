import type { Route } from './+types/v1.users.setpassword'
import { setPasswordSchema } from '~/features/accounts/account-forms'
import { setPasswordWithKey } from '~/features/accounts/account-settings.server'
import { parseJson, v1Route } from '~/http/api.server'

const route = v1Route<Route.LoaderArgs>({
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
