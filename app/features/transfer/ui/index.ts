/** The front door of transfer/ for pages and other features' UI. */
export { importProject, type ImportAnswer } from './import-request'
