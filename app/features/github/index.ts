/** The front door of github/ for other features: its pure rules and types. */
export { importIssuesSchema, linkRepositorySchema } from './github-api'
export {
  DESCRIPTION_MAX,
  descriptionOfBody,
  footerLine,
  issueBody,
  labelColor,
  tagsForLabels,
  titleOfIssue,
} from './issue-mapping'
export type { FeaturePlace } from './issue-mapping'
