import type { CardKind } from '../map/vocabulary'

/**
 * The /v1 paths of the four card kinds and their shared operations (SPEC §7), as data: the
 * routes dispatch on it and the OpenAPI document lists every path it allows.
 */
export const CARD_KIND_OF_PATH: Record<string, CardKind> = {
  milestones: 'milestone',
  workflows: 'workflow',
  subworkflows: 'subworkflow',
  features: 'feature',
}

export type CardOperation = {
  /** The board command it runs, before the body's fields are added. */
  command: (kind: CardKind) => Record<string, unknown>
  /** Whether the JSON body is read (SPEC §7 gives open and close no body). */
  body: boolean
  /** Only this kind has the operation (a feature's size). */
  only?: CardKind
}

/** POST /v1/{kind}/{id}/{op}. */
export const CARD_OPERATIONS: Record<string, CardOperation> = {
  rename: { command: (kind) => ({ type: 'card.rename', kind }), body: true },
  description: { command: (kind) => ({ type: 'card.description', kind }), body: true },
  open: { command: (kind) => ({ type: 'card.open', kind }), body: false },
  close: { command: (kind) => ({ type: 'card.close', kind }), body: false },
  color: { command: (kind) => ({ type: 'card.color', kind }), body: true },
  annotations: { command: (kind) => ({ type: 'card.annotations', kind }), body: true },
  move: { command: (kind) => ({ type: `${kind}.move` }), body: true },
  estimate: { command: () => ({ type: 'feature.estimate' }), body: true, only: 'feature' },
  tags: { command: () => ({ type: 'feature.tags' }), body: true, only: 'feature' },
}

/** The operation a path names, or null when that kind has no such operation. */
export function cardOperation(kind: CardKind, op: string | undefined): CardOperation | null {
  const found = op && Object.hasOwn(CARD_OPERATIONS, op) ? CARD_OPERATIONS[op] : undefined
  if (!found || (found.only && found.only !== kind)) return null
  return found
}
