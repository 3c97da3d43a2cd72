/** The front door of github/ for other features' server code: the §13 link the connector answers for (ADR 38). */
export { getRepositoryLink, getSyncLog, linkRepository, unlinkRepository } from './repository-link.server'
export { createIssueForFeature, sendReleaseToGithub } from './github-push.server'
export { syncNow } from './github-poll.server'
export { importIssues } from './github-import.server'
export { receiveGithubWebhook, SignatureRefused } from './github-webhook.server'
export { findLink as findGithubLink } from './github-link.server'
