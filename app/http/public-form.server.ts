import { data, type AppLoadContext } from 'react-router'
import { HONEYPOT_MESSAGE, honeypotFilled, HONEYPOT_FIELD } from './abuse'

export type FormRefusal = { message: string; init: ResponseInit }

/**
 * Log-in, sign-up, reset and contact pages call this first: a filled honeypot (a bot) is a 400,
 * a caller over a rate limit (counted by server/rate-limits.ts) a 429. The page
 * shows the message in its form, with or without JavaScript.
 */
export function publicFormRefusal(formData: FormData, context: AppLoadContext): FormRefusal | null {
  if (honeypotFilled(formData.get(HONEYPOT_FIELD)))
    return { message: HONEYPOT_MESSAGE, init: { status: 400 } }
  const limit = context.rateLimit
  // Retry-After is already on the response (server/rate-limits.ts sets it); Remix keeps it.
  if (limit) return { message: limit.message, init: { status: 429 } }
  return null
}

/** The action's answer for a refusal: its usual reply with the message, under the refusal's status. */
export function refusedForm<T>(reply: T, refusal: FormRefusal) {
  return data(reply, refusal.init)
}

/** The posted form; a body that is no form (JSON, text) is a 400 page, not a 500. */
export async function readForm(request: Request): Promise<FormData> {
  try {
    return await request.formData()
  } catch {
    throw data('The form could not be read.', { status: 400 })
  }
}
