import Database from 'better-sqlite3'
import { expect } from 'vitest'
import type { Client } from './client'
import type { FakeGithub } from './fake-github'

/** Helpers for the GitHub sync tests (CONTRACT §13). */

export async function link(client: Client, projectId: string, repository: string, token: string) {
  const res = await client.put(`/v1/projects/${projectId}/github`, { repository, token })
  expect(res.status, res.text).toBe(200)
  return res.json as { github: Record<string, any>; webhookSecret: string }
}

/** Polls `read` until `check` holds (up to `ms`), then answers the last value read. */
export async function eventually<T>(
  read: () => Promise<T> | T,
  check: (value: T) => boolean,
  ms = 10_000,
): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    const value = await read()
    if (check(value)) return value
    if (Date.now() > deadline)
      throw new Error(`condition not met in ${ms} ms; last value: ${JSON.stringify(value)}`)
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

/** The worker's finished polls of a repository (list calls that carry `since`; a first poll after a full-read link has none). */
export function pollsOf(github: FakeGithub, repository: string) {
  const path = `/repos/${repository}/issues`
  return github.calls.filter(
    (c) =>
      c.method === 'GET' && c.path.toLowerCase() === path.toLowerCase() && c.query.since && c.status !== 0,
  )
}

/** Waits until the worker has polled the repository `count` more times (so what it would do has been done). */
export async function afterPolls(github: FakeGithub, repository: string, count = 2, ms = 15_000) {
  const seen = pollsOf(github, repository).length
  await eventually(
    () => pollsOf(github, repository).length,
    (n) => n >= seen + count,
    ms,
  )
}
