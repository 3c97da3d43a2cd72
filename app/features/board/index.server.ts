/** The front door of board/ for other features' server code. */
export { executeBoardCommand, executeBoardCommands } from './board.server'
export { createFeature } from './cards.server'
export { getMemberView, setMemberView } from './member-view.server'
