/** The front door of trackers/ for the composition root, the routes and other features' server code. */
export { trackerFollower } from './tracker-outbox.server'
export { sealClearGithubWebhookSecrets, trackerProjectField } from './tracker-link.server'
export { startTrackerWorker } from './tracker-worker.server'
// GitHub's §13 answers: §13's routes, shapes and codes on the one connector (ADR 38).
export {
  createIssueForFeature,
  getRepositoryLink,
  getSyncLog,
  githubProjectField,
  importIssues,
  linkRepository,
  receiveGithubWebhook,
  sendReleaseToGithub,
  syncNow,
  unlinkRepository,
} from './github/github-answers.server'
export { githubDialogData, runGithubIntent } from './github/github-page.server'
export { WebhookRefused } from './tracker-webhook.server'
