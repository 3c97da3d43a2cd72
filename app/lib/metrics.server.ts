import type Database from 'better-sqlite3'
import { collectDefaultMetrics, Histogram, Registry } from 'prom-client'
import { getEnv } from './env.server'
import { singleton } from './singleton.server'

/**
 * The process's metrics for `GET /metrics` (CONTRACT §5, issue "Capacity"), kept by prom-client:
 * its default process and Node metrics (RSS, heap, event-loop delay, GC) and the time of every
 * SQLite write (timeWrites). The HTTP and gauge metrics are added by the Express layer
 * (server/metrics.ts). One registry for the process's two bundles (the Express server and the
 * React Router build), on globalThis.
 *
 * Null while METRICS_TOKEN is unset: then nothing is measured and nothing is wrapped, and a
 * recording call costs one map look-up.
 */
export type Metrics = {
  registry: Registry
  /** Time every write transaction takes, BEGIN to COMMIT (or rollback), by kind. */
  writeSeconds: Histogram<'kind'>
  /**
   * The kind the next outermost write transaction is timed under (timedWrite), else `other`. Kept
   * here, not in this module: each of the process's two bundles has its own copy of the module.
   */
  writeKind: { current: WriteKind | null }
}

/** What a write transaction was: a change through the one door, workspaces deleted, or any other write. */
export type WriteKind = 'change' | 'workspace_delete' | 'other'

export function metrics(): Metrics | null {
  return singleton('metrics', () => (getEnv().METRICS_TOKEN ? createMetrics() : null))
}

function createMetrics(): Metrics {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry })
  const writeSeconds = new Histogram({
    name: 'storymap_sqlite_write_seconds',
    help:
      'How long each write holds SQLite, BEGIN to COMMIT (a change through the one door, workspaces deleted, ' +
      'or any other write: sessions, invitations, outboxes), a wait for the write lock included. One process ' +
      'with one connection: every other write (and the event loop) waits as long.',
    labelNames: ['kind'],
    buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
    registers: [registry],
  })
  return { registry, writeSeconds, writeKind: { current: null } }
}

/** Runs `write`, whose write transaction is timed under `kind` (timeWrites does the timing). */
export function timedWrite<T>(kind: WriteKind, write: () => T): T {
  const m = metrics()
  if (!m) return write()
  const outer = m.writeKind.current
  m.writeKind.current = kind
  try {
    return write()
  } finally {
    m.writeKind.current = outer
  }
}

/** better-sqlite3 runs its transactions' BEGIN and COMMIT as statements: the transaction is timed whole instead. */
const TRANSACTION_CONTROL = /^\s*(BEGIN|COMMIT|END|ROLLBACK|SAVEPOINT|RELEASE)\b/i

/**
 * With metrics on, times every write of `client` (the main thread's connection, which makes all
 * writes but a page thread's renewal of a session): each outermost transaction that changed a row, and each write statement run outside a
 * transaction (its own transaction then). A transaction that only read is not counted. The
 * transactions are wrapped on the connection; a statement's `run` on better-sqlite3's statement
 * class, for this connection's statements only.
 */
export function timeWrites(client: Database.Database) {
  const m = metrics()
  if (!m) return
  const totalChanges = client.prepare('select total_changes()').pluck()
  const changes = () => totalChanges.get() as number
  const timed = <A extends unknown[], R>(run: (...args: A) => R, isWrite: () => boolean) =>
    function (this: unknown, ...args: A): R {
      if (client.inTransaction) return run.apply(this, args)
      const before = isWrite() ? null : changes()
      const started = performance.now()
      try {
        return run.apply(this, args)
      } finally {
        if (before === null || changes() !== before)
          m.writeSeconds.observe(
            { kind: m.writeKind.current ?? 'other' },
            (performance.now() - started) / 1000,
          )
      }
    }
  const transaction = client.transaction.bind(client)
  client.transaction = ((fn: (...args: unknown[]) => unknown) => {
    const tx = transaction(fn)
    const byChanges = () => false
    return Object.assign(timed(tx, byChanges), {
      default: timed(tx.default, byChanges),
      deferred: timed(tx.deferred, byChanges),
      immediate: timed(tx.immediate, byChanges),
      exclusive: timed(tx.exclusive, byChanges),
      database: client,
    })
  }) as Database.Database['transaction']
  const statementClass = Object.getPrototypeOf(totalChanges) as Database.Statement & {
    run: (...args: unknown[]) => Database.RunResult
  }
  const run = statementClass.run
  const runTimed = timed(run, () => true)
  statementClass.run = function (this: Database.Statement, ...args: unknown[]) {
    const timedHere = this.database === client && !this.reader && !TRANSACTION_CONTROL.test(this.source)
    return timedHere ? runTimed.apply(this, args) : run.apply(this, args)
  }
}
