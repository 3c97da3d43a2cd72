/** The front door of templates/ for other features: its pure rules and types (light: no template maps). */
export {
  newProjectSchema,
  projectFromTemplateSchema,
  renameTemplateSchema,
  saveTemplateSchema,
  templateIdSchema,
} from './template-forms'
export type { TemplateChoice, TemplateShape, TemplateSummary } from './templates'
