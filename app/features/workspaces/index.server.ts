/** The front door of workspaces/ for other features' server code. */
export { assertInvitedEmail, findLiveInvitation, joinByInvitation } from './invite.server'
export type { LiveInvitation } from './invite.server'
export { countEditors } from './seats.server'
export {
  getWorkspaceContextById,
  insertWorkspace,
  isWorkspaceNameTaken,
  listAccountWorkspaces,
  publicSubscription,
  publicWorkspace,
} from './workspace.server'
export type { Subscription, WorkspaceContext } from './workspace.server'
