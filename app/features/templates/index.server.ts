/** The front door of templates/ for other features' server code. */
export {
  createProjectFromTemplate,
  deleteTemplate,
  listOwnTemplates,
  listTemplateChoices,
  listTemplates,
  renameTemplate,
  saveTemplate,
} from './templates.server'
export { templateIntents } from './settings-intents.server'
