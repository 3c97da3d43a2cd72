import type { Route } from './+types/v1.users.signup'
import { signup } from '~/features/accounts/account.server'
import { createSession } from '~/features/accounts/session.server'
import { SIGNUP_ERROR_TEXT, SIGNUP_FIELD_CODES, signupSchema } from '~/lib/validation'
import { parseJson, v1Route } from '~/http/api.server'
import { assertPasswordLoginAllowed, publicAccount } from '~/features/accounts/account.server'
import { sendVerificationMail } from '~/features/accounts/account-settings.server'

const route = v1Route<Route.LoaderArgs>({
  POST: async ({ request }) => {
    assertPasswordLoginAllowed()
    const input = await parseJson(request, signupSchema, SIGNUP_FIELD_CODES, SIGNUP_ERROR_TEXT)
    const { account } = await signup(input)
    await sendVerificationMail(account) // a failed mail is logged; the new account stands
    return Response.json(publicAccount(account), {
      headers: { 'Set-Cookie': await createSession(account.id, request) },
    })
  },
})
export const loader = route.loader
export const action = route.action
