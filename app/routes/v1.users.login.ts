import type { Route } from './+types/v1.users.login'
import { DomainError } from '~/lib/errors'
import { loginSchema } from '~/lib/validation'
import { assertPasswordLoginAllowed, publicAccount, verifyLogin } from '~/features/accounts/account.server'
import { createSession } from '~/features/accounts/session.server'
import { parseJson, v1Route } from '~/http/api.server'

export const LOGIN_FAILED = 'Email or password is incorrect.'

const route = v1Route<Route.LoaderArgs>({
  POST: async ({ request }) => {
    assertPasswordLoginAllowed()
    const { email, password } = await parseJson(request, loginSchema)
    const account = await verifyLogin(email, password)
    if (!account) throw new DomainError('unauthorized', 'login_failed', LOGIN_FAILED)
    return Response.json(publicAccount(account), {
      headers: { 'Set-Cookie': await createSession(account.id, request) },
    })
  },
})
export const loader = route.loader
export const action = route.action
