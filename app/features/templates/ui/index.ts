/** The front door of templates/ for pages and other features' UI. */
export { NewProjectDialog } from './new-project-dialog'
export { SaveTemplateBoard } from './save-template-dialog'
export { TemplatesSection } from './templates-settings'
