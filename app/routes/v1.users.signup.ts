import { signup } from '~/models/account.server'
import { createSession } from '~/models/session.server'
import { SIGNUP_ERROR_TEXT, SIGNUP_FIELD_CODES, signupSchema } from '~/domain/validation'
import { parseJson, v1Route } from '~/utils/api.server'
import { assertPasswordLoginAllowed, publicAccount } from '~/models/account.server'
import { sendVerificationMail } from '~/models/account-settings.server'

const route = v1Route({
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
