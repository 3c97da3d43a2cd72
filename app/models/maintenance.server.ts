import { logger } from '~/utils/logger.server'
import { pruneChangeLog } from './change-log.server'

const HOUR = 60 * 60 * 1000

/** The server's own housekeeping: on start, then hourly. Returns the function that stops it. */
export function startMaintenance(): () => void {
  const run = () => {
    try {
      const pruned = pruneChangeLog()
      if (pruned > 0) logger.info({ pruned }, 'change log pruned')
    } catch (error) {
      logger.error({ err: error }, 'maintenance failed')
    }
  }
  run()
  const timer = setInterval(run, HOUR)
  timer.unref()
  return () => clearInterval(timer)
}
