import { z } from 'zod'
import 'zod-openapi'
import { renameTemplateSchema, saveTemplateSchema } from '~/features/templates'
import type { PathSpecs } from './operations'
import { emptySchema } from './schemas'

/** Map templates (CONTRACT §16): the built-in ones and a workspace's own. */
export const templateSchema = z
  .object({
    id: z.string().meta({ description: 'A built-in template’s word id (`online-shop`) or a UUID.' }),
    title: z.string(),
    description: z.string(),
    builtIn: z.boolean(),
    goals: z.number().int().meta({ description: 'How many goals the map has.' }),
    features: z.number().int().meta({ description: 'How many features the map has.' }),
  })
  .meta({
    id: 'Template',
    description: 'A map to start a project from (POST /v1/projects/{id} `templateId`).',
  })

const ownerOrAdmin = 'Workspace OWNERs and ADMINs only, on an active plan.'
const builtIn = { 409: 'A built-in template cannot be changed (`template_builtin`).' }

export const TEMPLATE_PATHS: PathSpecs = {
  '/v1/templates': {
    get: {
      tag: 'Templates',
      summary: 'The built-in templates and the workspace’s own',
      access: 'workspace',
      ok: z.object({ templates: z.array(templateSchema) }),
    },
    post: {
      tag: 'Templates',
      summary: 'Save a project as a template',
      description: `${ownerOrAdmin} Stores the map as it is now (the export JSON without comments).`,
      access: 'workspace',
      write: true,
      body: saveTemplateSchema,
      ok: z.object({ template: templateSchema }),
    },
  },
  '/v1/templates/{id}': {
    patch: {
      tag: 'Templates',
      summary: 'Rename a template',
      description: ownerOrAdmin,
      access: 'workspace',
      write: true,
      body: renameTemplateSchema,
      ok: z.object({ template: templateSchema }),
      errors: builtIn,
    },
    delete: {
      tag: 'Templates',
      summary: 'Delete a template',
      description: ownerOrAdmin,
      access: 'workspace',
      write: true,
      ok: emptySchema,
      errors: builtIn,
    },
  },
}
