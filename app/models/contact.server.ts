import { CONTACT_ERROR } from '~/domain/account-forms'
import { refuse } from '~/domain/errors'
import { getEnv } from '~/utils/env.server'
import { sendMail } from '~/utils/email.server'
import { contactMessage } from '~/utils/email-messages.server'
import { logger } from '~/utils/logger.server'

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
