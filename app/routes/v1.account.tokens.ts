import type { Route } from './+types/v1.account.tokens'
import { createTokenSchema } from '~/features/automation/api-tokens'
import { createToken, listAccountTokens } from '~/features/automation/api-token.server'
import { parseJson, requireApiAccount, v1Route } from '~/http/api.server'

/** The caller's API tokens (CONTRACT §10): list, and make one; its secret is in that answer only. */
const route = v1Route<Route.LoaderArgs>({
  GET: async ({ request }) => ({ tokens: listAccountTokens((await requireApiAccount(request)).id) }),
  POST: async ({ request }) => {
    const account = await requireApiAccount(request)
    const input = await parseJson(request, createTokenSchema)
    return Response.json(createToken(account.id, input), {
      status: 201,
      headers: { 'Cache-Control': 'no-store' },
    })
  },
})
export const loader = route.loader
export const action = route.action
