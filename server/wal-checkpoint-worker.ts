// The WAL checkpointer's thread (server/wal-checkpointer.ts): copies committed pages from the
// write-ahead log into the database file, and waits on the disk there, not on the main thread.
import Database from 'better-sqlite3'
import { parentPort, workerData } from 'node:worker_threads'

const { file, everyMs } = workerData as { file: string; everyMs: number }
const db = new Database(file)
db.pragma('busy_timeout = 5000')

// PASSIVE: never waits for readers or blocks the writer; it copies what no open read still needs,
// and the writer starts the log over once a pass has copied all of it.
const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)')
  } catch (error) {
    parentPort?.postMessage({ failed: error instanceof Error ? error.message : String(error) })
  }
}, everyMs)

parentPort?.on('message', (message) => {
  if (message !== 'stop') return
  clearInterval(timer)
  db.close()
  parentPort?.close()
})
