/** The front door of workspaces/ for other features: its pure rules and types. */
export { planAccountDeletion } from './membership'
export { inviteSchema, levelChangeSchema } from './workspace-forms'
