/** The front door of github/ for other features: its pure rules and types. */
export { importIssuesSchema, linkRepositorySchema } from './github-api'
export {
  conflictNote,
  decideFields,
  DESCRIPTION_MAX,
  descriptionOfBody,
  footerLine,
  issueBody,
  labelColor,
  labelKey,
  pullSummary,
  SYNCED_FIELDS,
  tagsForLabels,
  titleOfIssue,
} from './issue-mapping'
export type { FeaturePlace, SyncedValues } from './issue-mapping'
