import Database from 'better-sqlite3'
import { expect } from 'vitest'
import type { Client } from './client'

/** Helpers for the GitHub sync tests (CONTRACT §13). */

export async function link(client: Client, projectId: string, repository: string, token: string) {
  const res = await client.put(`/v1/projects/${projectId}/github`, { repository, token })
  expect(res.status, res.text).toBe(200)
  return res.json as { github: Record<string, any>; webhookSecret: string }
}

/** Polls `read` until `check` holds (up to `ms`), then answers the last value read. */
export async function eventually<T>(read: () => Promise<T> | T, check: (value: T) => boolean, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    const value = await read()
    if (check(value)) return value
    if (Date.now() > deadline) throw new Error(`condition not met in ${ms} ms; last value: ${JSON.stringify(value)}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

/** Rows of a table in the server's database, read beside it (a second connection). */
export function rows(dbPath: string, sql: string, ...args: unknown[]) {
  const db = new Database(dbPath, { readonly: true })
  try {
    return db.prepare(sql).all(...args) as Record<string, any>[]
  } finally {
    db.close()
  }
}

export function featureOf(bundle: { features: { id: string }[] }, id: string) {
  return bundle.features.find((f) => f.id === id) as Record<string, any>
}
