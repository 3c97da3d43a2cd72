import type { Route } from './+types/v1.users.contact'
import { CONTACT_ERROR, contactSchema } from '~/features/accounts/account-forms'
import { refuse } from '~/lib/errors'
import { sendContact } from '~/features/accounts/contact.server'
import { readJson, v1Route } from '~/http/api.server'

/** No session needed. Errors use the server's wording of SPEC §8. */
const route = v1Route<Route.LoaderArgs>({
  POST: async ({ request }) => {
    const result = contactSchema.safeParse(await readJson(request))
    if (!result.success) {
      const issue = result.error.issues[0]
      const field = String(issue.path[0] ?? '')
      if (field === 'body') {
        const e = issue.code === 'too_big' ? CONTACT_ERROR.long : CONTACT_ERROR.short
        throw refuse.invalid(e.code, e.message)
      }
      if (field === 'topic') throw refuse.invalid('topic_invalid', 'topic invalid')
      throw refuse.invalid(CONTACT_ERROR.sender.code, CONTACT_ERROR.sender.message)
    }
    await sendContact(result.data)
    return {}
  },
})
export const loader = route.loader
export const action = route.action
