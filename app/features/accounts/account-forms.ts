import { z } from 'zod'
import { personNameSchema, text } from '~/lib/validation'

/** Schemas of the account, invitation and contact forms (SPEC §5), shared by pages and /v1. */

const newPassword = text('Password required.')
  .min(6, 'Password minimum 6 characters.')
  .max(200, 'Password maximum 200 characters.')

export const resetRequestSchema = z.object({
  email: text('Email required.').trim().pipe(z.email('Email invalid.')),
})

export const setPasswordSchema = z.object({
  key: z.string().min(1).max(200),
  password: newPassword,
})

export const setPasswordFormSchema = z.object({ password: newPassword })

export const emailChangeSchema = z.object({
  email: text('Required.').trim().pipe(z.email('Invalid email address.')),
})

export const nameChangeSchema = z.object({ name: personNameSchema })

export const CONTACT_TOPICS = ['general', 'sales', 'support'] as const

export const contactSchema = z.object({
  topic: z.enum(CONTACT_TOPICS).default('general'),
  body: text('Required.').min(1, 'Minimum 1 character.').max(10000, 'Maximum 10000 characters.'),
  sender: text('Required.').trim().pipe(z.email('Invalid email address.')),
})

/** The server's own wording for contact errors (SPEC §8). */
export const CONTACT_ERROR = {
  sender: { code: 'email_invalid', message: 'email invalid' },
  short: { code: 'message_too_short', message: 'message too short' },
  long: { code: 'message_too_long', message: 'message too long' },
} as const
