import { logger } from '~/lib/logger.server'
import { singleton } from '~/lib/singleton.server'
import type { ChangeContext } from './change-events'
import type { AppendedChange, CommittedChange } from './change-log.server'

export type { CommittedChange }

/** What a listener learns of the door's request beside the change itself. */
export type ChangeRequestSeen = {
  by: ChangeContext
  command: { type: string } & Record<string, unknown>
  log: { trash?: boolean; notice?: { kind: string } }
}

/**
 * A feature that follows the changes to maps (ADR 37): the trash, outgoing webhooks, the tracker
 * outboxes, comment e-mails, the live hub. The door names none of them: each registers at start
 * from the composition root (server/map-followers.ts), and the door calls every one it has.
 */
export type ChangeListener = {
  /** For logs and tests. */
  name: string
  /**
   * Inside the change's own transaction, once per change appended: outbox rows and other writes
   * that must stand or fall with the change. A throw rolls the change back.
   */
  inTransaction?: (change: AppendedChange, request: ChangeRequestSeen) => void
  /** After the commit, with every change the door call committed (never empty). */
  afterCommit?: (changes: readonly CommittedChange[]) => void
  /** After whole workspaces went with their maps (unlogged): these projects are gone. */
  mapsGone?: (projectIds: readonly string[]) => void
}

// Shared by both bundles of the process (the server's and the router's), like every singleton.
const registry = () => singleton('map-change-listeners', () => ({ listeners: [] as ChangeListener[] }))

/** Registers a listener; a second one of the same name replaces the first (a re-registration, a test). */
export function registerChangeListener(listener: ChangeListener) {
  const { listeners } = registry()
  const at = listeners.findIndex((l) => l.name === listener.name)
  if (at === -1) listeners.push(listener)
  else listeners[at] = listener
}

/** The listeners registered, in order. */
export const changeListeners = (): readonly ChangeListener[] => registry().listeners

export function followInTransaction(change: AppendedChange, request: ChangeRequestSeen) {
  for (const listener of registry().listeners) listener.inTransaction?.(change, request)
}

/** After the commit the change stands: a listener that fails is logged, and the others still run. */
function each(run: (listener: ChangeListener) => void) {
  for (const listener of registry().listeners) {
    try {
      run(listener)
    } catch (error) {
      logger.error({ err: error, listener: listener.name }, 'a change listener failed after the commit')
    }
  }
}

export const followCommitted = (changes: readonly CommittedChange[]) => each((l) => l.afterCommit?.(changes))

export const followMapsGone = (projectIds: readonly string[]) => each((l) => l.mapsGone?.(projectIds))
