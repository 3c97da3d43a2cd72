/** The front door of assistant/ for routes and other features' server code. */
export {
  admitAssistantRequest,
  assistantAvailableTo,
  draftMapAnswer,
  draftMapStream,
  featureSuggestions,
  type DraftLine,
} from './assistant.server'
export { assistantConfigOf, type AssistantConfig } from './assistant-model.server'
export { readFeaturePlace, type FeaturePlace } from './feature-context.server'
export { createProjectFromDraft } from './draft-project.server'
