import type { BoardCommandType } from './board-commands'

/** SPEC §8: the alert shown when a board call fails, by command. */
const ALERTS: Partial<Record<BoardCommandType, string>> = {
  'card.rename': 'Something went wrong when trying to rename.',
  'card.description': 'Something went wrong when updating description.',
  'feature.move': 'Something went wrong when moving feature.',
  'milestone.move': 'Something went wrong when moving milestone.',
  'workflow.move': 'Something went wrong when moving card.',
  'subworkflow.move': 'Something went wrong when moving card.',
  'persona.delete': 'Something went wrong when deleting persona.',
  'persona.update': 'Something went wrong when editing persona.',
  'persona.create': 'Something went wrong when creating persona.',
  'workflowPersona.delete': 'Something went wrong when removing persona from goal.',
  'workflowPersona.create': 'Something went wrong when adding the persona to the goal.',
  'comment.delete': 'Something went wrong when deleting comment.',
  'comment.edit': 'Something went wrong when editing a comment.',
  'comment.create': 'Something went wrong when posting a comment.',
}

/** Shown when the member may no longer edit while a change was being typed (CONTRACT §6 `access`). */
export const EDIT_ACCESS_LOST = 'You can only view this map now, so your change was not saved.'

export function alertForFailed(type: BoardCommandType | undefined): string {
  return (type && ALERTS[type]) ?? 'Something went wrong.'
}

/** The board's failure alerts, pushed from the route's clientAction and shown by the page. */
type Listener = (message: string, detail?: string) => void
const listeners = new Set<Listener>()
export const boardAlerts = {
  /** `detail`: the server's reason for a refusal, shown after the alert. */
  emit(message: string, detail?: string) {
    for (const listener of listeners) listener(message, detail || undefined)
  },
  subscribe(listener: Listener) {
    listeners.add(listener)
    return () => void listeners.delete(listener)
  },
}
