import type Database from 'better-sqlite3'
import { getDb, type Db } from './db.server'

const statementsByConnection = new WeakMap<Database.Database, Map<string, unknown>>()

/**
 * A Drizzle query prepared once per database connection and reused (`.prepare()` with
 * `sql.placeholder`s), for the queries every request runs: building and preparing their SQL
 * anew was a sixth of a write's time. There is one connection, so a statement prepared here
 * also runs inside a caller's transaction.
 */
export function prepared<T>(name: string, build: (db: Db) => T): T {
  const db = getDb()
  let statements = statementsByConnection.get(db.$client)
  if (!statements) statementsByConnection.set(db.$client, (statements = new Map()))
  let statement = statements.get(name) as T | undefined
  if (statement === undefined) {
    statement = build(db)
    statements.set(name, statement)
  }
  return statement
}

/**
 * A raw SQL statement prepared once per connection, keyed by its text: for hand-written SQL on a
 * request's path (better-sqlite3 compiles the SQL anew on every `prepare`). Callers must not
 * switch its mode (`pluck`, `raw`, `expand`): another caller of the same text would get it so.
 */
export function statement(sqlText: string): Database.Statement {
  return prepared(`sql:${sqlText}`, (db) => db.$client.prepare(sqlText))
}
