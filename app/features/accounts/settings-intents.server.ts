import { parseWithZod } from '@conform-to/zod/v4'
import type { SubmissionResult } from '@conform-to/react'
import { DomainError } from '~/lib/errors'
import { mailConfigured } from '~/lib/email.server'
import { MAIL_NOT_SET_UP } from '~/lib/mail-texts'
import type { SettingsOutcome } from '~/http/settings-intents.server'
import { emailChangeSchema, nameChangeSchema } from './account-forms'
import { changeName, deleteAccount, requestEmailChange, resendVerification } from './account-settings.server'
import { unlinkIdentity } from './oidc-identity.server'
import { issuerKey, oidcSettings } from './oidc.server'
import { destroySession, type SessionAccount } from './session.server'

/** What an account settings form posts with, besides its fields. */
export type AccountIntentInput = { account: SessionAccount; formData: FormData; request: Request }
export type AccountFormReply = { intent: 'email' | 'name'; result: SubmissionResult<string[]> }

const FAILED = 'Something went wrong.'

/** The account's own intents on `/account/settings` (SPEC §5): e-mail, name, verification, single sign-on, deletion. */
export const accountIntents = {
  async resend({ account }: AccountIntentInput): Promise<SettingsOutcome<never>> {
    try {
      await resendVerification(account)
      return mailConfigured() ? { done: 'Mail sent.' } : { failed: MAIL_NOT_SET_UP }
    } catch (error) {
      if (error instanceof DomainError) return { failed: FAILED }
      throw error
    }
  },

  async email({ account, formData }: AccountIntentInput): Promise<SettingsOutcome<AccountFormReply>> {
    const submission = parseWithZod(formData, { schema: emailChangeSchema })
    if (submission.status !== 'success') return { reply: { intent: 'email', result: submission.reply() } }
    try {
      await requestEmailChange(account, submission.value.email)
      if (!mailConfigured())
        return {
          failed: `Your new email waits for verification, but no link could reach it. ${MAIL_NOT_SET_UP}`,
        }
      return { done: 'An email has been sent to your new email with instructions.' }
    } catch (error) {
      if (!(error instanceof DomainError)) throw error
      if (error.field)
        return {
          reply: { intent: 'email', result: submission.reply({ fieldErrors: { email: [error.message] } }) },
        }
      return { failed: FAILED }
    }
  },

  name({ account, formData }: AccountIntentInput): SettingsOutcome<AccountFormReply> {
    const submission = parseWithZod(formData, { schema: nameChangeSchema })
    if (submission.status !== 'success') return { reply: { intent: 'name', result: submission.reply() } }
    changeName(account, submission.value.name)
    return { done: 'Name is changed. Refresh your browser for it to take effect.' }
  },

  unlinkSso({ account }: AccountIntentInput): SettingsOutcome<never> {
    const settings = oidcSettings()
    if (!settings) return { failed: FAILED }
    unlinkIdentity(account, issuerKey(settings.issuer))
    return { done: `Unlinked from ${settings.name}.` }
  },

  async delete({ account, request }: AccountIntentInput): Promise<SettingsOutcome<never>> {
    deleteAccount(account)
    return { done: null, to: '/', headers: [['Set-Cookie', await destroySession(request)]] }
  },
}
