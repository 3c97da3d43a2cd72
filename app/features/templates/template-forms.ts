import { z } from 'zod'
import { titleSchema } from '~/features/board'
import { uuidSchema } from '~/lib/ids'

/** What the template routes and forms accept (CONTRACT §16). Pure and light: the browser uses it. */

/** A template's id: a built-in's word id (`online-shop`) or a workspace template's UUID. */
export const templateIdSchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9-]{1,64}$/, 'Unknown template.')

/** `POST /v1/templates` and `Save as template`. */
export const saveTemplateSchema = z.object({ projectId: uuidSchema, title: titleSchema })
/** `PATCH /v1/templates/{id}` and the rename form. */
export const renameTemplateSchema = z.object({ title: titleSchema })
/** `POST /v1/projects/{id}` with a template: `title` and `templateId`. */
export const projectFromTemplateSchema = z.object({ title: titleSchema, templateId: templateIdSchema })
