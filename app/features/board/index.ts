/** The front door of board/ for other features: its pure rules and types. */
export {
  annotationsSchema,
  avatarSchema,
  boardCommandSchema,
  colorSchema,
  descriptionSchema,
  estimateSchema,
  parseBoardCommand,
  personaNameSchema,
  personaRoleSchema,
  postSchema,
  tagColorSchema,
  tagNameSchema,
  titleSchema,
} from './board-commands'
export type { BoardCommand, BoardCommandInput, CardKind } from './board-commands'
export { NO_FILTER } from './board-filter'
export { buildGrid, cellKey } from './board-grid'
export { CARD_KIND_OF_PATH, CARD_OPERATIONS, cardOperation } from './card-routes'
export { createSearchTextIndex, featureMatcher, memberNameMap } from './feature-match'
export type { HistoryState } from './history-state'
export { mapViewSchema } from './view-schema'
export type { MapView } from './overview'
