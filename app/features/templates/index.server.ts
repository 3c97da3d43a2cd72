/** The front door of templates/ for other features' server code. */
export {
  createProjectFromTemplate,
  deleteTemplate,
  listTemplates,
  renameTemplate,
  saveTemplate,
} from './templates.server'
