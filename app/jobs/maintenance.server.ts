import { logger } from '~/lib/logger.server'
import { pruneChangeLog } from '~/features/map/change-log.server'
import { pruneSentNotifications } from '~/features/notifications/notifications.server'
import { purgeExpiredTrash } from '~/features/history/trash.server'
import { pruneWebhookLog } from '~/features/automation/webhook-worker.server'

const HOUR = 60 * 60 * 1000

/**
 * The server's own housekeeping, on start and then hourly: the trash's 30-day purge, then the
 * change log's pruning (and the webhook log's and the sent notifications'). Returns the function that stops it.
 */
export function startMaintenance(): () => void {
  const run = () => {
    try {
      const purged = purgeExpiredTrash()
      if (purged > 0) logger.info({ purged }, 'trash entries older than 30 days deleted')
      const pruned = pruneChangeLog()
      if (pruned > 0) logger.info({ pruned }, 'change log pruned')
      pruneWebhookLog()
      pruneSentNotifications()
    } catch (error) {
      logger.error({ err: error }, 'maintenance failed')
    }
  }
  run()
  const timer = setInterval(run, HOUR)
  timer.unref()
  return () => clearInterval(timer)
}
