import { z } from 'zod'
import 'zod-openapi'
import {
  ASSISTANT_MESSAGES,
  draftMapRequestSchema,
  featureAssistantRequestSchema,
} from '~/features/assistant'
import { AVATARS } from '~/features/map/vocabulary'
import type { OperationSpec, PathSpecs } from './operations'
import { colorSchema } from './schemas'

/** The assistant (CONTRACT §16): suggestions from the server's configured model; nothing is written. */

const id = z.string().meta({ format: 'uuid', description: 'A new id, made for this draft.' })
const card = {
  id,
  rank: z.string(),
  title: z.string(),
  description: z.string(),
  color: colorSchema,
  status: z.enum(['OPEN', 'CLOSED']),
  annotations: z.string(),
}

export const draftMapFileSchema = z
  .object({
    format: z.literal('storymap'),
    formatVersion: z.literal(1),
    exportedAt: z.string().meta({ format: 'date-time' }),
    project: z.object({ title: z.string(), description: z.string() }),
    milestones: z.array(z.object(card)),
    workflows: z.array(z.object(card)),
    subWorkflows: z.array(z.object({ ...card, workflowId: id })),
    features: z.array(
      z.object({ ...card, milestoneId: id, subWorkflowId: id, estimate: z.int(), tagIds: z.array(id) }),
    ),
    featureComments: z.array(z.never()),
    personas: z.array(
      z.object({ id, avatar: z.enum(AVATARS), name: z.string(), role: z.string(), description: z.string() }),
    ),
    workflowPersonas: z.array(z.object({ personaId: id, workflowId: id })),
    tags: z.array(z.never()),
  })
  .meta({
    id: 'DraftMap',
    description:
      'A drafted map in the export shape (CONTRACT §8), without authors, times or comments: `POST /v1/projects/import` makes a project of it.',
  })

const draftLineSchema = z
  .union([
    z.object({
      type: z.literal('partial'),
      draft: z.record(z.string(), z.unknown()).meta({
        description:
          'The model’s answer so far (goals › activities › cells › features), unchecked: a preview only.',
      }),
    }),
    z.object({
      type: z
        .literal('retry')
        .meta({ description: 'The first answer was unusable: the preview starts again.' }),
    }),
    z.object({ type: z.literal('done'), map: draftMapFileSchema }),
    z.object({
      type: z.literal('error'),
      error: z.object({ code: z.string(), message: z.string() }),
    }),
  ])
  .meta({ id: 'DraftMapLine', description: 'One line of the streamed draft.' })

const ERRORS = {
  403: 'Not a member, level too low, plan inactive (`level_too_low`, `plan_inactive`), or a `read` token (`token_read_only`).',
  404: 'The assistant is not set up on this server (`assistant_off`), or no such feature in this workspace.',
  429: 'Over 20 assistant requests a minute for this member (`too_many_requests`, `Retry-After`).',
  502: `The answer could not be used twice (\`assistant_failed\`: "${ASSISTANT_MESSAGES.assistant_failed}"), or the model refused the key (\`assistant_unavailable\`).`,
  504: 'No answer from the model within AI_TIMEOUT_SECONDS (`assistant_timeout`).',
} as const

const WHO =
  'EDITORs and up, on an active plan; only when the server has AI_BASE_URL and AI_MODEL. Writes nothing: applying a suggestion uses the ordinary write routes.'

const suggest: OperationSpec = {
  tag: 'Assistant',
  summary: 'Suggest smaller features or acceptance criteria for a feature',
  description: `${WHO} The model is sent the feature, its release, goal, activity and neighbours' titles, never e-mail addresses or tokens. \`split\` answers \`{"suggestions": [{"title","description"}]}\` (3–6), \`criteria\` answers \`{"criteria": ["…"]}\`.`,
  access: 'workspace',
  body: featureAssistantRequestSchema,
  ok: z.union([
    z.object({ suggestions: z.array(z.object({ title: z.string(), description: z.string() })) }),
    z.object({ criteria: z.array(z.string()) }),
  ]),
  errors: ERRORS,
}

export const ASSISTANT_PATHS: PathSpecs = {
  '/v1/assistant/draft-map': {
    post: {
      tag: 'Assistant',
      summary: 'Draft a story map from a product description',
      description: `${WHO} The model is sent the description alone. With \`Accept: application/x-ndjson\` the draft streams as JSON lines: \`partial\` previews, \`retry\` when the first answer was unusable, then \`done\` with the map, or a last \`error\` line with the code and text the JSON answer would have; refusals before the stream begins are the ordinary JSON answers.`,
      access: 'workspace',
      body: draftMapRequestSchema,
      ok: z.object({ map: draftMapFileSchema }),
      alsoOk: { mediaType: 'application/x-ndjson', schema: draftLineSchema },
      errors: ERRORS,
    },
  },
  '/v1/features/{id}/assistant': { post: suggest },
}
