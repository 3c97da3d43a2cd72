import { collectDefaultMetrics, Histogram, Registry } from 'prom-client'
import { getEnv } from './env.server'
import { singleton } from './singleton.server'

/**
 * The process's metrics for `GET /metrics` (CONTRACT §5, issue "Capacity"), kept by prom-client:
 * its default process and Node metrics (RSS, heap, event-loop delay, GC) and the SQLite write
 * timing of the one door. The HTTP and gauge metrics are added by the Express layer
 * (server/metrics.ts). One registry for the process's two bundles (the Express server and the
 * React Router build), on globalThis.
 *
 * Null while METRICS_TOKEN is unset: then nothing is measured and nothing is wrapped, and a
 * recording call costs one map look-up.
 */
export type Metrics = {
  registry: Registry
  /** Time the door's write transactions take, BEGIN to COMMIT (or rollback). */
  writeSeconds: Histogram<'kind'>
}

/** What a write transaction was: a change through the one door, or workspaces deleted. */
export type WriteKind = 'change' | 'workspace_delete'

export function metrics(): Metrics | null {
  return singleton('metrics', () => (getEnv().METRICS_TOKEN ? createMetrics() : null))
}

function createMetrics(): Metrics {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry })
  const writeSeconds = new Histogram({
    name: 'storymap_sqlite_write_seconds',
    help:
      'How long each write transaction of the one door holds SQLite, BEGIN to COMMIT, a wait for the ' +
      "write lock included. One process with one connection: every other write (and the event loop) waits as long.",
    labelNames: ['kind'],
    buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
    registers: [registry],
  })
  return { registry, writeSeconds }
}

/** Runs one write transaction (`write`), timed when metrics are on. */
export function timedWrite<T>(kind: WriteKind, write: () => T): T {
  const m = metrics()
  if (!m) return write()
  const end = m.writeSeconds.startTimer({ kind })
  try {
    return write()
  } finally {
    end()
  }
}
