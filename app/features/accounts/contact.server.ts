import { CONTACT_ERROR } from './account-forms'
import { refuse } from '~/lib/errors'
import { getEnv } from '~/lib/env.server'
import { sendMail } from '~/lib/email.server'
import { contactMessage } from '~/features/notifications/index.server'
import { logger } from '~/lib/logger.server'

export type ContactInput = { topic: string; body: string; sender: string }

/**
 * Delivers a contact-form message to CONTACT_EMAIL, or to the log when it is unset. When the
 * mail fails, the whole message is logged so that it is not lost.
 */
export async function sendContact(input: ContactInput) {
  if (input.body.length < 1)
    throw refuse.invalid(CONTACT_ERROR.short.code, CONTACT_ERROR.short.message, 'body')
  if (input.body.length > 10000)
    throw refuse.invalid(CONTACT_ERROR.long.code, CONTACT_ERROR.long.message, 'body')
  const to = getEnv().CONTACT_EMAIL
  if (!to) {
    logger.info({ contact: input }, 'contact form message (CONTACT_EMAIL unset)')
    return
  }
  if (!(await sendMail(contactMessage(to, input.topic, input.sender, input.body)))) {
    logger.error({ contact: input }, 'contact form message could not be mailed; kept here')
  }
}
