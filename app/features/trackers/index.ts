/** The front door of trackers/ for other features: its pure rules and types. */
export { linkTrackerSchema, PROVIDER_LABEL, tokenExpiringText, trackerStoppedText } from './tracker-api'
export type { LinkTrackerInput, TrackerProviderName } from './tracker-api'
export { importIssuesSchema, LINK_FIELD_CODES, linkRepositorySchema } from './github/github-api'
