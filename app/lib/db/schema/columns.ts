import { sql } from 'drizzle-orm'
import { integer } from 'drizzle-orm/sqlite-core'

// Times are ISO 8601 strings (UTC); ids are UUIDs chosen by the client for board entities.
export const now = sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`
export const bool = (name: string) => integer(name, { mode: 'boolean' })
