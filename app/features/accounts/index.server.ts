/** The front door of accounts/ for other features' server code. */
export type { SessionAccount } from './session.server'
