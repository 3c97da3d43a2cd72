import { z } from 'zod'
import { titleSchema } from '~/features/board'
import { uuidSchema } from '~/lib/ids'
import { createProjectSchema, text } from '~/lib/validation'
import { TITLE_MAX } from '~/features/map/vocabulary'

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

/**
 * The `New project` dialog: a title (SPEC §5's messages) and `Blank` (no `templateId`: the
 * radio's empty value) or a template.
 */
export const newProjectSchema = createProjectSchema.extend({ templateId: templateIdSchema.optional() })

/** The rename and `Save as template` forms (conform turns an empty field into `undefined`). */
export const templateTitleFormSchema = z.object({
  title: text('Title required.')
    .trim()
    .min(1, 'Title required.')
    .max(TITLE_MAX, `Maximum ${TITLE_MAX} characters.`),
})
