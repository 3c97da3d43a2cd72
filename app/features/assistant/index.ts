/** The front door of assistant/ for other features and the browser: its pure rules and types. */
export {
  ASSISTANT_ACTIONS,
  createFromDraftSchema,
  draftMapRequestSchema,
  featureAssistantRequestSchema,
  wantsDraftStream,
  type AssistantAction,
} from './assistant-requests'
export { ASSISTANT_MESSAGES, type AssistantErrorCode } from './assistant-errors'
export {
  ACCEPTANCE_CRITERIA_SYSTEM_PROMPT,
  DRAFT_MAP_SYSTEM_PROMPT,
  SPLIT_FEATURE_SYSTEM_PROMPT,
  draftMapUserMessage,
  featureUserMessage,
  type FeatureContext,
} from './assistant-prompts'
export {
  acceptanceCriteriaSchema,
  draftMapSchema,
  DRAFT_DESCRIPTION_MAX,
  splitSuggestionsSchema,
  type AcceptanceCriteria,
  type DraftMap,
  type SplitSuggestions,
} from './assistant-schemas'
export type { MapFile } from './draft-map-file'
