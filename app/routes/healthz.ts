import { sql } from 'drizzle-orm'
import { getDb } from '~/db/db.server'

export function loader() {
  try {
    getDb().get(sql`select 1`)
    return Response.json({ ok: true }, { headers: { 'Cache-Control': 'no-store' } })
  } catch {
    return Response.json({ ok: false }, { status: 503 })
  }
}
