import { registerChangeListener } from '../app/features/map/listeners.server'
import { liveFollower } from '../app/features/live/live-hub.server'
import { trashFollower } from '../app/features/history/trash-entries.server'
import { webhookFollower } from '../app/features/automation/webhook.server'
import { trackerFollower } from '../app/features/trackers/index.server'
import { commentMailFollower } from '../app/features/notifications/notifications.server'
import { registerMapReaders } from './map-readers'

/**
 * What follows every change to a map, in this order (ADR 37): the live hub after the commit
 * first (a board sees its change before any other server hears of it), then, inside the change's
 * transaction, the trash, outgoing webhooks, the trackers' outbox and comment e-mails. The door
 * (app/features/map/door.server.ts) names none of them.
 */
export function registerMapFollowers() {
  registerChangeListener(liveFollower)
  registerChangeListener(trashFollower)
  registerChangeListener(webhookFollower)
  registerChangeListener(trackerFollower)
  registerChangeListener(commentMailFollower)
  registerMapReaders()
}
