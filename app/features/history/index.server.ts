/** The front door of history/ for other features' server code. */
export { undo } from './history.server'
