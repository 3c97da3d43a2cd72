import { databaseAnswers } from '~/lib/health.server'

/** GET /healthz: 200 `{"ok": true}` while the database answers, else 503 (Docker's health check). */
export function loader() {
  if (databaseAnswers()) return Response.json({ ok: true }, { headers: { 'Cache-Control': 'no-store' } })
  return Response.json({ ok: false }, { status: 503 })
}
