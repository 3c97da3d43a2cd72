/** The front door of assistant/ for pages: the Suggest part of a feature's dialog and Draft a map. */
export { FeatureSuggest } from './feature-suggest'
export { DraftMapPanel } from './draft-map-panel'
