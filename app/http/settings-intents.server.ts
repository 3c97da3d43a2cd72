import { redirect } from 'react-router'
import { z } from 'zod'
import { DomainError } from '~/lib/errors'
import { isUuid } from '~/lib/ids'
import { redirectWithMessage } from './toast.server'

/**
 * The settings pages' forms post to the page with an `intent` (they work without JavaScript).
 * Each feature answers its own intents with an outcome; the page's route parses the intent with
 * zod, calls the feature, and replies: back to the page with a message, or the form's reply.
 */
export type SettingsOutcome<Reply> =
  /** Done: back to `to` (default the page) with this message (if any), and any Set-Cookie headers. */
  | { done: string | null; to?: string; headers?: [string, string][] }
  /** Refused or failed: back to the page with this message. */
  | { failed: string }
  /** The form's own answer (field errors, a secret shown once), for the page to render. */
  | { reply: Reply }

/** A posted `id`; a malformed one finds nothing, so the model answers 'not found'. */
export const postedId = (formData: FormData) => {
  const raw = formData.get('id')
  return isUuid(raw) ? raw.toLowerCase() : '00000000-0000-0000-0000-000000000000'
}

export type IntentHandler<Input, Reply> = (
  input: Input,
) => SettingsOutcome<Reply> | Promise<SettingsOutcome<Reply>>

/** `z.enum` of a page's intents, from its table of handlers. */
export function intentSchema<T extends Record<string, unknown>>(handlers: T) {
  const names = Object.keys(handlers) as [keyof T & string, ...(keyof T & string)[]]
  return z.object({ intent: z.enum(names) })
}

type OutcomeOf<H> = H extends (input: never) => infer O ? Awaited<O> : never
type RepliesOf<O> = O extends { reply: infer R } ? R : never
type ReplyOf<H> = RepliesOf<OutcomeOf<H>>

/**
 * Runs the intent a form posted with `handlers` (a page's table of intents), turning a refusal of
 * the rules (DomainError) into the message it gives. An unknown intent goes back to the page.
 */
export async function answerIntent<Input, H extends Record<string, IntentHandler<Input, unknown>>>(
  here: string,
  handlers: H,
  formData: FormData,
  input: Input,
): Promise<Response | ReplyOf<H[keyof H]>> {
  const parsed = intentSchema(handlers).safeParse({ intent: formData.get('intent') })
  if (!parsed.success) return redirectWithMessage(here, { type: 'fail', message: 'Something went wrong.' })
  let outcome: SettingsOutcome<unknown>
  try {
    outcome = await handlers[parsed.data.intent](input)
  } catch (error) {
    if (error instanceof DomainError)
      return redirectWithMessage(here, { type: 'fail', message: error.message })
    throw error
  }
  if ('reply' in outcome) return outcome.reply as ReplyOf<H[keyof H]>
  if ('failed' in outcome) return redirectWithMessage(here, { type: 'fail', message: outcome.failed })
  const to = outcome.to ?? here
  if (outcome.done === null) return redirect(to, { headers: outcome.headers })
  return redirectWithMessage(to, { type: 'success', message: outcome.done }, { headers: outcome.headers })
}
