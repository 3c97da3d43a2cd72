import { z } from 'zod'
import { boardCommandSchema, mapViewSchema } from '~/features/board'
import type { CardKind } from '~/features/map/vocabulary'
import { CARD_KIND_OF_PATH, cardOperation, CARD_OPERATIONS } from '~/features/board'
import type { OperationSpec, PathSpecs } from './operations'
import { templateIdSchema } from '~/features/templates'
import {
  activitySchema,
  bundleSchema,
  cardEntitySchema,
  commentSchema,
  emptySchema,
  exportFileSchema,
  featureSchema,
  historyStepSchema,
  liveStreamSchema,
  milestoneSchema,
  personaSchema,
  projectSchema,
  sharingSchema,
  subWorkflowSchema,
  tagSchema,
  trashSchema,
  workflowPersonaSchema,
  workflowSchema,
} from './schemas'

/** The body of a board command's route: the command's fields but those the path fixes. */
function commandBody(type: string, rename: Record<string, string> = {}): z.ZodObject {
  const option = boardCommandSchema.options.find((o) => o.shape.type.value === type)
  if (!option) throw new Error(`no board command ${type}`)
  const entries = Object.entries(option.shape)
    .filter(([field]) => !['type', 'id', 'kind'].includes(field))
    .map(([field, schema]) => [rename[field] ?? field, schema])
  return z.object(Object.fromEntries(entries))
}

const ENTITY_OF_KIND: Record<CardKind, z.ZodType> = {
  milestone: milestoneSchema,
  workflow: workflowSchema,
  subworkflow: subWorkflowSchema,
  feature: featureSchema,
}
const NAME_OF_KIND: Record<CardKind, string> = {
  milestone: 'release',
  workflow: 'goal',
  subworkflow: 'activity',
  feature: 'feature',
}
const OPERATION_SUMMARY: Record<string, string> = {
  rename: 'Rename',
  description: 'Change the description of',
  open: 'Reopen',
  close: 'Close',
  color: 'Change the colour of',
  annotations: 'Change the annotations of',
  move: 'Move',
  estimate: 'Set the size of',
  tags: 'Replace the tags of',
}

const write = (spec: Omit<OperationSpec, 'access' | 'write'>): OperationSpec => ({
  ...spec,
  access: 'workspace',
  write: true,
})

function cardPaths(): PathSpecs {
  const paths: PathSpecs = {}
  for (const [segment, kind] of Object.entries(CARD_KIND_OF_PATH)) {
    const name = NAME_OF_KIND[kind]
    const tag = 'Cards'
    paths[`/v1/${segment}/{id}`] = {
      post: write({
        tag,
        summary: `Create a ${name}`,
        body: commandBody(`${kind}.create`),
        ok: ENTITY_OF_KIND[kind],
      }),
      delete: write({
        tag,
        summary: `Delete a ${name}`,
        description: 'It goes to the project trash with everything under it (CONTRACT §7).',
        ok: emptySchema,
      }),
    }
    for (const op of Object.keys(CARD_OPERATIONS)) {
      const found = cardOperation(kind, op)
      if (!found) continue
      const body = found.body ? commandBody(String(found.command(kind).type)) : undefined
      paths[`/v1/${segment}/{id}/${op}`] = {
        post: write({ tag, summary: `${OPERATION_SUMMARY[op]} a ${name}`, body, ok: ENTITY_OF_KIND[kind] }),
      }
    }
  }
  return paths
}

const since = z.object({
  since: z
    .int()
    .min(0)
    .optional()
    .meta({ description: 'Replay the changes after this version (or send `Last-Event-ID`).' }),
})
const eventStream = {
  mediaType: 'text/event-stream',
  description: 'The live stream.',
  schema: liveStreamSchema,
}

export const BOARD_PATHS: PathSpecs = {
  '/v1/projects': {
    get: {
      tag: 'Projects',
      summary: "The workspace's projects",
      access: 'workspace',
      ok: z.array(projectSchema),
    },
  },
  '/v1/projects/{id}': {
    get: { tag: 'Projects', summary: 'A whole map', access: 'workspace', ok: bundleSchema },
    post: write({
      tag: 'Projects',
      summary: 'Create a project',
      description:
        'With `templateId` (GET /v1/templates), the project holds that template’s map: new ids, one change.',
      body: commandBody('project.create').extend({ templateId: templateIdSchema.optional() }),
      ok: projectSchema,
    }),
    delete: write({
      tag: 'Projects',
      summary: 'Delete a project',
      description: "To the workspace's trash.",
      ok: emptySchema,
    }),
  },
  '/v1/projects/{id}/rename': {
    post: write({
      tag: 'Projects',
      summary: 'Rename a project',
      body: commandBody('card.rename'),
      ok: projectSchema,
    }),
  },
  '/v1/projects/{id}/description': {
    post: write({
      tag: 'Projects',
      summary: 'Describe a project',
      body: commandBody('card.description'),
      ok: projectSchema,
    }),
  },
  '/v1/projects/{id}/duplicate': {
    post: write({
      tag: 'Import and export',
      summary: 'Copy a project',
      body: z.object({ id: z.string().meta({ format: 'uuid' }), title: z.string().max(200).optional() }),
      ok: z.object({ project: projectSchema }),
    }),
  },
  '/v1/projects/import': {
    post: write({
      tag: 'Import and export',
      summary: 'Make a project from an export or a storymap.csv',
      description:
        'Send a JSON export (`application/json`) or a CSV (`text/csv`); up to 10 MiB and 20,000 cards; all or nothing. Refusals are 400 `import_invalid` naming the line or field.',
      query: z.object({ title: z.string().optional().meta({ description: 'A title for the new project.' }) }),
      body: z.looseObject({ format: z.literal('storymap'), formatVersion: z.literal(1) }).meta({
        description: 'A JSON export (the `ExportFile` schema), or the text of a storymap.csv as `text/csv`.',
      }),
      ok: z.object({ project: projectSchema }),
      errors: { 413: 'The body is over 10 MiB.' },
    }),
  },
  '/v1/projects/{id}/export': {
    get: {
      tag: 'Import and export',
      summary: 'A project as a file',
      access: 'workspace',
      ok: {
        mediaType: 'application/json',
        description: 'The export file, as an attachment.',
        schema: exportFileSchema,
      },
    },
  },
  '/v1/projects/{id}/events': {
    get: {
      tag: 'Live',
      summary: "A project's live changes",
      access: 'project',
      query: since,
      ok: eventStream,
    },
  },
  '/v1/projects/{id}/activity': {
    get: {
      tag: 'History',
      summary: "A project's changes, newest first",
      access: 'workspace',
      query: z.object({
        before: z.int().min(1).optional().meta({ description: 'Only changes before this version.' }),
        limit: z.int().min(1).max(100).default(50),
      }),
      ok: activitySchema,
    },
  },
  '/v1/projects/{id}/undo': {
    post: write({
      tag: 'History',
      summary: 'Undo your last change here',
      ok: historyStepSchema,
      errors: { 409: '`nothing_to_undo` or `undo_conflict`.' },
    }),
  },
  '/v1/projects/{id}/redo': {
    post: write({
      tag: 'History',
      summary: 'Redo your last undone change',
      ok: historyStepSchema,
      errors: { 409: '`nothing_to_redo`.' },
    }),
  },
  '/v1/projects/{id}/trash': {
    get: { tag: 'History', summary: "A project's deleted cards", access: 'workspace', ok: trashSchema },
  },
  '/v1/projects/{id}/sharing': {
    get: { tag: 'Sharing', summary: "A project's share link", access: 'workspace', ok: sharingSchema },
    post: write({
      tag: 'Sharing',
      summary: 'Stop or restart sharing a project',
      body: z.object({ enabled: z.boolean() }),
      ok: sharingSchema,
    }),
  },
  '/v1/projects/{id}/view': {
    get: {
      tag: 'Projects',
      summary: 'Your view of a board: folds and zoom',
      description:
        'Kept per member and project, the same on every device; ids that no longer exist are left out.',
      access: 'workspace',
      ok: mapViewSchema,
    },
    put: {
      tag: 'Projects',
      summary: 'Keep your view of a board',
      description:
        'Any member, VIEWERs too. Never a change to the map: no event, no version, no undo step. Unknown ids are ignored.',
      access: 'workspace',
      body: mapViewSchema,
      ok: mapViewSchema,
      errors: { 403: 'Not a member of the workspace, or a `read` token (`token_read_only`).' },
    },
  },
  '/v1/projects/{id}/newlink': {
    post: write({
      tag: 'Sharing',
      summary: 'A new share link; the old one stops at once',
      ok: sharingSchema,
    }),
  },
  '/v1/featurecomments/{id}': {
    post: write({
      tag: 'Comments',
      summary: 'Comment on a feature',
      body: commandBody('comment.create'),
      ok: commentSchema,
    }),
    delete: write({ tag: 'Comments', summary: 'Delete your comment', ok: emptySchema }),
  },
  '/v1/featurecomments/{id}/post': {
    post: write({
      tag: 'Comments',
      summary: 'Edit your comment',
      body: commandBody('comment.edit', { post: 'description' }),
      ok: commentSchema,
    }),
  },
  '/v1/personas/{id}': {
    post: write({
      tag: 'Personas',
      summary: 'Create a persona',
      body: commandBody('persona.create'),
      ok: personaSchema,
    }),
    put: write({
      tag: 'Personas',
      summary: 'Replace a persona',
      body: commandBody('persona.update'),
      ok: personaSchema,
    }),
    delete: write({ tag: 'Personas', summary: 'Delete a persona', ok: emptySchema }),
  },
  '/v1/workflowpersonas/{id}': {
    post: write({
      tag: 'Personas',
      summary: 'Put a persona on a goal',
      body: commandBody('workflowPersona.create'),
      ok: workflowPersonaSchema,
    }),
    delete: write({ tag: 'Personas', summary: 'Take a persona off a goal', ok: emptySchema }),
  },
  '/v1/tags/{id}': {
    post: write({
      tag: 'Tags',
      summary: 'Create a tag',
      body: commandBody('tag.create'),
      ok: tagSchema,
      errors: { 409: 'The id is used, or the project has a tag of that name (`tag_taken`, case ignored).' },
    }),
    delete: write({
      tag: 'Tags',
      summary: 'Delete a tag',
      description: 'It is taken off every feature; undo brings it back.',
      ok: emptySchema,
    }),
  },
  '/v1/tags/{id}/rename': {
    post: write({
      tag: 'Tags',
      summary: 'Rename a tag',
      body: commandBody('tag.rename'),
      ok: tagSchema,
      errors: { 409: '`tag_taken`.' },
    }),
  },
  '/v1/tags/{id}/color': {
    post: write({
      tag: 'Tags',
      summary: 'Change the colour of a tag',
      body: commandBody('tag.color'),
      ok: tagSchema,
    }),
  },
  '/v1/trash': {
    get: {
      tag: 'History',
      summary: "The workspace's deleted projects",
      access: 'workspace',
      ok: trashSchema,
    },
  },
  '/v1/trash/{id}/restore': {
    post: write({
      tag: 'History',
      summary: 'Restore from the trash',
      ok: cardEntitySchema,
      errors: { 409: '`parent_missing`: its parent is in the trash.' },
    }),
  },
  '/v1/trash/{id}': {
    delete: write({ tag: 'History', summary: 'Delete from the trash for good', ok: emptySchema }),
  },
  '/v1/link/{key}': {
    get: {
      tag: 'Public link',
      summary: 'A shared map',
      access: 'public',
      ok: bundleSchema,
      errors: { 404: 'No such link, or sharing is off.' },
    },
  },
  '/v1/link/{key}/export': {
    get: {
      tag: 'Public link',
      summary: 'A shared map as a file',
      access: 'public',
      ok: {
        mediaType: 'application/json',
        description: 'The export file, as an attachment.',
        schema: exportFileSchema,
      },
      errors: { 404: 'No such link, or sharing is off.' },
    },
  },
  '/v1/link/{key}/events': {
    get: {
      tag: 'Public link',
      summary: "A shared map's live changes",
      access: 'public',
      query: since,
      ok: eventStream,
      errors: { 404: 'No such link, or sharing is off.' },
    },
  },
  ...cardPaths(),
}
