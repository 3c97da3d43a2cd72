import { z } from 'zod'
import { TITLE_MAX } from '~/features/map/vocabulary'

/**
 * What the assistant asks the model for (CONTRACT §16), as zod schemas: each is sent as the
 * request's JSON schema (`response_format` of type `json_schema`) and checks the answer. Every
 * limit is in the schema itself (lengths, counts, index ranges), so a server that constrains its
 * output to the schema (Ollama, vLLM, LM Studio) can only answer something usable, and no answer
 * can grow a map past a few hundred cards. Every property is required (an empty list where there
 * is nothing), as strict structured-output modes want. Pure: used by the server and the preview.
 */

/** The product description typed in `Draft a map`. */
export const DRAFT_DESCRIPTION_MAX = 4000
export const draftDescriptionSchema = z
  .string({ error: 'Required.' })
  .trim()
  .min(1, 'Minimum 1 character.')
  .max(DRAFT_DESCRIPTION_MAX, `Maximum ${DRAFT_DESCRIPTION_MAX} characters.`)

/** The longest description the assistant writes on one card (a card holds up to 10,000). */
export const SUGGESTED_DESCRIPTION_MAX = 2000

/** How big a drafted map can be: every list's bounds, as sent to the model. */
export const DRAFT_LIMITS = {
  goals: { min: 1, max: 5 },
  activitiesPerGoal: { min: 1, max: 5 },
  /** A draft always has three releases: the smallest release that works end to end, then two more. */
  releases: 3,
  featuresPerCell: { min: 1, max: 4 },
  personas: { max: 2 },
} as const

const title = z.string().trim().min(1).max(TITLE_MAX)
const text = z.string().max(SUGGESTED_DESCRIPTION_MAX)

const featureSchema = z.object({
  title: title.describe('A short name for the piece of work, a few words'),
  description: text.describe('One or two sentences: what the feature does for the person using it'),
})

const cellSchema = z.object({
  release: z
    .int()
    .min(0)
    .max(DRAFT_LIMITS.releases - 1)
    .describe(
      'Which release the features belong to: 0 for the first release, 1 for the second, 2 for the third',
    ),
  features: z
    .array(featureSchema)
    .min(DRAFT_LIMITS.featuresPerCell.min)
    .max(DRAFT_LIMITS.featuresPerCell.max),
})

const activitySchema = z.object({
  title: title.describe('A step people take towards the goal, e.g. "Find a product"'),
  cells: z.array(cellSchema).min(1).max(DRAFT_LIMITS.releases),
})

const goalSchema = z.object({
  title: title.describe('Something people want to achieve with the product, e.g. "Buy something"'),
  activities: z
    .array(activitySchema)
    .min(DRAFT_LIMITS.activitiesPerGoal.min)
    .max(DRAFT_LIMITS.activitiesPerGoal.max),
})

const personaSchema = z.object({
  name: z.string().trim().min(1).max(200).describe('A first name, e.g. "Maya"'),
  role: z.string().max(200).describe('Who they are, e.g. "First-time buyer"'),
  description: text,
  goals: z
    .array(
      z
        .int()
        .min(0)
        .max(DRAFT_LIMITS.goals.max - 1),
    )
    .max(DRAFT_LIMITS.goals.max)
    .describe('The goals this persona pursues, by position in goals (0 for the first)'),
})

/** `Draft a map`: the model's answer. `draftToMapFile` turns it into the §8 JSON shape. */
export const draftMapSchema = z.object({
  title: title.describe("The product's name, or a short title for the map"),
  description: text.describe('One or two sentences about the product'),
  releases: z
    .array(z.object({ title, description: text }))
    .length(DRAFT_LIMITS.releases)
    .describe('Exactly three releases, in order; the first is the smallest one that works end to end'),
  goals: z.array(goalSchema).min(DRAFT_LIMITS.goals.min).max(DRAFT_LIMITS.goals.max),
  personas: z.array(personaSchema).max(DRAFT_LIMITS.personas.max),
})
export type DraftMap = z.output<typeof draftMapSchema>

/** `Split into smaller features`: 3–6 suggestions, each `Add`ed as a feature in the same cell. */
export const splitSuggestionsSchema = z.object({
  suggestions: z.array(featureSchema).min(3).max(6),
})
export type SplitSuggestions = z.output<typeof splitSuggestionsSchema>

/** `Acceptance criteria`: a checklist appended under `### Acceptance criteria`. */
export const CRITERION_MAX = 300
export const acceptanceCriteriaSchema = z.object({
  criteria: z
    .array(z.string().trim().min(1).max(CRITERION_MAX).describe('One short, testable statement'))
    .min(1)
    .max(10),
})
export type AcceptanceCriteria = z.output<typeof acceptanceCriteriaSchema>
