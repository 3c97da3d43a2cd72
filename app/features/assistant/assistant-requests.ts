import { z } from 'zod'
import { titleSchema } from '~/features/board'
import { uuidSchema } from '~/lib/ids'
import { draftDescriptionSchema } from './assistant-schemas'

/** The bodies of the assistant's routes (CONTRACT §16). Pure: the server checks them, the OpenAPI document shows them. */

/** `POST /v1/assistant/draft-map`. */
export const draftMapRequestSchema = z.object({
  description: draftDescriptionSchema.meta({
    description: 'What the product is and who uses it, 1–4,000 characters.',
  }),
})

export const ASSISTANT_ACTIONS = ['split', 'criteria'] as const
export type AssistantAction = (typeof ASSISTANT_ACTIONS)[number]

/** `POST /v1/features/{id}/assistant`. */
export const featureAssistantRequestSchema = z.object({
  action: z.enum(ASSISTANT_ACTIONS, { error: 'Must be "split" or "criteria".' }).meta({
    description: '`split`: 3–6 smaller features; `criteria`: acceptance criteria.',
  }),
})

/** Whether a request asks for the draft as NDJSON lines rather than one JSON answer. */
export const wantsDraftStream = (request: Request) =>
  /\bapplication\/x-ndjson\b/i.test(request.headers.get('Accept') ?? '')

/** `Create` under a draft: the new project's id and title, and the drafted map (checked as an import). */
export const createFromDraftSchema = z.object({
  id: uuidSchema,
  title: titleSchema,
  map: z.record(z.string(), z.unknown(), { error: 'The drafted map.' }),
})
