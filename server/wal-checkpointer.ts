import { Worker } from 'node:worker_threads'
import { logger } from '../app/lib/logger.server'

/** How often the log is copied into the database file. */
const EVERY_MS = 1000

/**
 * SQLite copies the write-ahead log into the database file (a checkpoint, with an fsync) inside
 * the commit that crosses 1,000 pages of log, so one write in a few hundred waited on the disk,
 * and every request queued on the main thread behind it: 10–20 ms here, far more on a busy disk.
 * Checkpoints run on a thread of their own every second instead, and the connections that write
 * (the main thread's, the page threads') never checkpoint (issue 34, ADR 29).
 */
export function startWalCheckpointer(
  file: string,
  {
    onLost,
    workerUrl = new URL('./wal-checkpoint-worker.js', import.meta.url),
  }: {
    /** The thread ended without being asked to: checkpoints must go back to the connection that writes. */
    onLost: () => void
    workerUrl?: URL
  },
) {
  const worker = new Worker(workerUrl, { workerData: { file, everyMs: EVERY_MS } })
  let stopping = false
  worker.on('message', (message: { failed?: string }) => {
    if (message.failed) logger.warn({ reason: message.failed }, 'a WAL checkpoint failed')
  })
  worker.on('error', (err) => logger.error({ err }, 'the WAL checkpointer stopped'))
  const exited = new Promise<void>((resolve) =>
    worker.once('exit', () => {
      if (!stopping) onLost()
      resolve()
    }),
  )
  worker.unref()
  return {
    stop: () => {
      stopping = true
      worker.postMessage('stop')
      return exited
    },
  }
}

/** On a connection of a process whose checkpoints run on the checkpointer's thread. */
export const CHECKPOINTS_ELSEWHERE = 'wal_autocheckpoint = 0'

/** SQLite's own checkpoints again (its default), for when the checkpointer's thread is gone. */
export const CHECKPOINTS_HERE = 'wal_autocheckpoint = 1000'
