import { once } from 'node:events'
import v8 from 'node:v8'
import { Worker } from 'node:worker_threads'
import type { Mail } from '../app/lib/email.server'
import { logger } from '../app/lib/logger.server'

/** How often the log is copied into the database file. */
const CHECKPOINT_EVERY_MS = 1000

/**
 * The side thread's young generation (MB per semi-space). Its work makes little garbage, and a
 * thread's young generation stays as large as it once grew: with the main thread's 4 MB (or the
 * page threads' 16, when their flag came first) the thread held about 30 MB at 640 teams; with 1,
 * about 20 (issue 49).
 */
export const SIDE_SEMI_SPACE_MB = 1

export type OutgoingMail = Mail & { from: string }
export type SideThreadReply = { failed: string } | { id: number; error?: string }

/**
 * The server's side thread (ADR 29, ADR 44): work that mostly waits, kept off the main thread and
 * sharing one thread, since each Node thread costs about 20 MB of memory.
 *
 * - WAL checkpoints. SQLite copies the write-ahead log into the database file (with an fsync)
 *   inside the commit that crosses 1,000 pages of log, so one write in a few hundred waited on the
 *   disk, and every request queued on the main thread behind it: 10–20 ms here, far more on a busy
 *   disk. Checkpoints run here every second instead, and the connections that write (the main
 *   thread's, the page threads') never checkpoint (issue 34).
 * - E-mail (with `smtpUrl`). Building each message and the SMTP exchange, a new connection per
 *   message, were 5–8 % of the main thread's time with 640 teams commenting (issue 49); here a
 *   pool of SMTP connections is kept.
 *
 * If the thread ends unasked, `onLost` runs (checkpoints and e-mail go back to the main thread)
 * and the messages it still held fail, logged by their senders as any SMTP failure is.
 */
export function startSideThread({
  databaseFile,
  smtpUrl,
  onLost,
  workerUrl = new URL('./side-thread-worker.js', import.meta.url),
}: {
  databaseFile: string
  smtpUrl?: string
  onLost: () => void
  workerUrl?: URL
}) {
  // A thread's heap is sized from the flag as it is when the thread's isolate starts, a moment
  // after this call: `started` says when, so that no other thread's size can slip in first.
  v8.setFlagsFromString(`--max-semi-space-size=${SIDE_SEMI_SPACE_MB}`)
  const worker = new Worker(workerUrl, {
    workerData: { file: databaseFile, everyMs: CHECKPOINT_EVERY_MS, smtpUrl },
  })
  // Held until it runs: a server awaiting `started` has nothing else keeping Node alive yet.
  const started = Promise.race([once(worker, 'online'), once(worker, 'exit')]).then(
    () => undefined,
    () => undefined, // an error ends the thread: `onLost` handles it
  )
  const waiting = new Map<number, { resolve: () => void; reject: (error: Error) => void }>()
  let nextId = 0
  let stopping = false
  let lost = false
  let drained: (() => void) | undefined

  worker.on('message', (message: SideThreadReply) => {
    if ('failed' in message) return logger.warn({ reason: message.failed }, 'a WAL checkpoint failed')
    const sender = waiting.get(message.id)
    waiting.delete(message.id)
    if (waiting.size === 0) {
      worker.unref()
      drained?.()
    }
    if (message.error === undefined) sender?.resolve()
    else sender?.reject(new Error(message.error))
  })
  worker.on('error', (err) => logger.error({ err }, 'the side thread stopped'))
  const exited = new Promise<void>((resolve) =>
    worker.once('exit', () => {
      lost = true
      for (const sender of waiting.values()) sender.reject(new Error('the side thread stopped'))
      waiting.clear()
      if (!stopping) onLost()
      resolve()
    }),
  )
  void started.then(() => {
    if (waiting.size === 0) worker.unref()
  })

  function sendMail(mail: OutgoingMail): Promise<void> {
    if (lost) return Promise.reject(new Error('the side thread stopped'))
    const id = nextId++
    // Held while a message is on its way, so a shutdown does not cut it off.
    worker.ref()
    worker.postMessage({ id, mail })
    return new Promise((resolve, reject) => waiting.set(id, { resolve, reject }))
  }

  return {
    /** The thread is running (or has already ended): its heap has its size. */
    started,
    sendMail: smtpUrl ? sendMail : undefined,
    /** Waits for the messages on their way (at most `graceMs`), then ends the thread. */
    async stop(graceMs = 5_000) {
      stopping = true
      if (waiting.size > 0 && !lost) {
        let timer: NodeJS.Timeout | undefined
        await Promise.race([
          new Promise<void>((resolve) => (drained = resolve)),
          exited,
          new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs))),
        ])
        clearTimeout(timer)
      }
      worker.postMessage('stop')
      await exited
    },
  }
}

/** On a connection of a process whose checkpoints run on the side thread. */
export const CHECKPOINTS_ELSEWHERE = 'wal_autocheckpoint = 0'

/** SQLite's own checkpoints again (its default), for when the side thread is gone. */
export const CHECKPOINTS_HERE = 'wal_autocheckpoint = 1000'
