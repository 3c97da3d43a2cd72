import { prepared } from '~/lib/db/prepared.server'

/** Whether the database answers (`GET /healthz`): one statement prepared once, run per probe. */
export function databaseAnswers(): boolean {
  try {
    prepared('healthz', (db) => db.$client.prepare('select 1').pluck()).get()
    return true
  } catch {
    return false
  }
}
