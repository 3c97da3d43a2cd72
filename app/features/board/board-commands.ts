import { z } from 'zod'
import { uuidSchema } from '~/lib/ids'

/**
 * Every write on a story map as one command, shared by the browser (optimistic board) and the
 * server (the /v1 API and the board page's action both run executeBoardCommand on these).
 * Pure: no Remix, no database.
 */

export * from '../map/vocabulary'
import {
  AVATARS,
  CARD_KINDS,
  COLORS,
  COMMENT_MAX,
  DESCRIPTION_MAX,
  ESTIMATE_MAX,
  normalizeAnnotations,
  tagNameProblem,
  TITLE_MAX,
  TITLED_KINDS,
} from '../map/vocabulary'

const id = uuidSchema
export const titleSchema = z
  .string()
  .trim()
  .min(1, 'Title required.')
  .max(TITLE_MAX, `Maximum ${TITLE_MAX} characters.`)
export const descriptionSchema = z.string().max(DESCRIPTION_MAX, `Maximum ${DESCRIPTION_MAX} characters.`)
export const colorSchema = z.enum([...COLORS, ''], { error: 'Unknown color.' })
export const annotationsSchema = z
  .string()
  .max(1000)
  .transform((value, ctx) => {
    const normal = normalizeAnnotations(value)
    if (normal === null) {
      ctx.addIssue({ code: 'custom', message: 'Unknown annotation.' })
      return z.NEVER
    }
    return normal
  })
export const estimateSchema = z
  .number({ error: 'Must be an integer.' })
  .int('Must be an integer.')
  .min(0, 'Must be positive.')
  .max(ESTIMATE_MAX, `Max ${ESTIMATE_MAX}.`)
export const indexSchema = z
  .number({ error: 'Must be an integer.' })
  .int('Must be an integer.')
  .min(0)
  .max(1_000_000)
export const postSchema = z
  .string({ error: 'Please write a comment.' })
  .max(COMMENT_MAX, `Maximum ${COMMENT_MAX} characters.`)
  .refine((s) => s.trim().length > 0, 'Minimum 1 character.')
export const avatarSchema = z.enum(AVATARS, { error: 'Unknown avatar.' })
export const personaNameSchema = z.string().trim().min(1, 'Required.').max(200, 'Maximum 200 characters.')
export const personaRoleSchema = z.string().max(200, 'Maximum 200 characters.')
export const tagNameSchema = z
  .string({ error: 'Name required.' })
  .trim()
  .superRefine((name, ctx) => {
    const problem = tagNameProblem(name)
    if (problem) ctx.addIssue({ code: 'custom', message: problem })
  })
export const tagColorSchema = z.enum(COLORS, { error: 'Unknown color.' })

/** `""` read as null: clients of the original product send empty strings for "none". */
const emptyAsNull = <S extends z.ZodType>(schema: S) =>
  z.preprocess((value) => (value === '' ? null : value), schema)

const cmd = <T extends string, S extends z.ZodRawShape>(type: T, shape: S) =>
  z.object({ type: z.literal(type), ...shape })

/**
 * A move's place in the list it goes to (app/features/map/rank.ts): right after `afterId` or
 * right before `beforeId` (cards of that list; the first still there wins), else at `index`.
 * The /v1 API's callers send an index alone; the board sends all three.
 */
const movePlace = {
  index: indexSchema.optional(),
  afterId: id.optional().meta({ description: 'The card of the destination list it goes right after.' }),
  beforeId: id.optional().meta({
    description: 'The card of the destination list it goes right before (when afterId is not there).',
  }),
}
const namesPlace = (move: object) =>
  Object.keys(movePlace).some((field) => (move as Record<string, unknown>)[field] !== undefined)
const moveCmd = <T extends string, S extends z.ZodRawShape>(type: T, shape: S) =>
  cmd(type, { id, ...shape, ...movePlace }).refine(namesPlace, {
    path: ['index'],
    message: 'Must be an integer.',
  })

export const boardCommandSchema = z.discriminatedUnion('type', [
  cmd('project.create', { id, title: titleSchema }),
  cmd('milestone.create', { id, projectId: id, title: titleSchema }),
  cmd('workflow.create', { id, projectId: id, title: titleSchema }),
  cmd('subworkflow.create', { id, workflowId: id, title: titleSchema }),
  cmd('feature.create', { id, milestoneId: id, subWorkflowId: id, title: titleSchema }),

  // The shared card operations: one set for every kind instead of four copies.
  cmd('card.rename', { kind: z.enum(TITLED_KINDS), id, title: titleSchema }),
  cmd('card.description', { kind: z.enum(TITLED_KINDS), id, description: descriptionSchema }),
  cmd('card.open', { kind: z.enum(CARD_KINDS), id }),
  cmd('card.close', { kind: z.enum(CARD_KINDS), id }),
  cmd('card.color', { kind: z.enum(CARD_KINDS), id, color: colorSchema }),
  cmd('card.annotations', { kind: z.enum(CARD_KINDS), id, annotations: annotationsSchema }),
  cmd('card.delete', { kind: z.enum(TITLED_KINDS), id }),

  moveCmd('milestone.move', {}),
  moveCmd('workflow.move', {}),
  moveCmd('subworkflow.move', { toWorkflowId: id }),
  moveCmd('feature.move', { toSubWorkflowId: id, toMilestoneId: id }),
  cmd('feature.estimate', { id, estimate: estimateSchema }),

  cmd('comment.create', { id, featureId: id, post: postSchema }),
  cmd('comment.edit', { id, post: postSchema }),
  cmd('comment.delete', { id }),

  cmd('persona.create', {
    id,
    projectId: id,
    avatar: avatarSchema.default('avatar00'),
    name: personaNameSchema,
    role: personaRoleSchema.default(''),
    description: descriptionSchema.default(''),
    /**
     * When given, the persona is also put on this goal, as workflow persona `workflowPersonaId`.
     * An empty string means none (CONTRACT §3: what the original Featmap client sends).
     */
    workflowId: emptyAsNull(id.nullish()),
    workflowPersonaId: emptyAsNull(id.nullish()),
  }).refine((c) => !c.workflowId || !!c.workflowPersonaId, {
    path: ['workflowPersonaId'],
    message: 'Required with workflowId.',
  }),
  // PUT replaces the persona: a name is required, the other fields fall back to their defaults.
  cmd('persona.update', {
    id,
    avatar: avatarSchema.default('avatar00'),
    name: personaNameSchema,
    role: personaRoleSchema.default(''),
    description: descriptionSchema.default(''),
  }),
  cmd('persona.delete', { id }),
  cmd('workflowPersona.create', { id, workflowId: id, personaId: id }),
  cmd('workflowPersona.delete', { id }),

  cmd('tag.create', { id, projectId: id, name: tagNameSchema, color: tagColorSchema }),
  cmd('tag.rename', { id, name: tagNameSchema }),
  cmd('tag.color', { id, color: tagColorSchema }),
  cmd('tag.delete', { id }),
  cmd('feature.tags', {
    id,
    tagIds: z.array(id, { error: 'A list of tag ids.' }).max(100, 'At most 100 tags.'),
  }),
])

export type BoardCommand = z.output<typeof boardCommandSchema>
export type BoardCommandInput = z.input<typeof boardCommandSchema>
export type BoardCommandType = BoardCommand['type']

function snake(field: string) {
  return field.replace(/[A-Z]/g, (c) => '_' + c.toLowerCase())
}

/** Parses a command; a refusal names the first bad field as `<field>_invalid` (e.g. `title_invalid`). */
export function parseBoardCommand(
  input: unknown,
): { ok: true; command: BoardCommand } | { ok: false; code: string; field: string; message: string } {
  const result = boardCommandSchema.safeParse(input)
  if (result.success) return { ok: true, command: result.data }
  const issue = result.error.issues[0]
  const field = issue.path.length > 0 ? String(issue.path[0]) : ''
  const code = field ? `${snake(field)}_invalid` : 'invalid_input'
  const message =
    field === 'title' ? 'Title is invalid.' : field ? `${field}: ${issue.message}` : issue.message
  return { ok: false, code, field, message }
}
