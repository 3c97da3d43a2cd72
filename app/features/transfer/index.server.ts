/** The front door of transfer/ for other features' server code. */
export { createProjectFromFile } from './import.server'
