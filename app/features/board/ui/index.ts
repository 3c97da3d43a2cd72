/** The front door of board/ for other features' UI. */
export { callApi } from './api-client'
export { useBoard } from './board-context'
export type { LiveInfo } from './board-context'
export { boardOutbox } from './board-outbox'
export type { OutboxState } from './board-outbox'
export { wantBoardReload } from './board-reload'
export { checkSession } from './live/session-check'
export { unsavedDrafts } from './unsaved-drafts'
