/** The front door of notifications/ for other features' server code. */
export {
  contactMessage,
  githubTokenRefusedMessage,
  invitationMessage,
  resetPasswordMessage,
  trackerNoticeMessage,
  verifyEmailMessage,
  webhookDisabledMessage,
} from './email-messages.server'
export { workspaceMemberNames } from './notifications.server'
