import { prepared } from '~/lib/db/prepared.server'
import type { NameOf } from './activity-sentence'

const NAME_SQL = {
  milestone: 'select title from milestones where id = ?',
  workflow: 'select title from workflows where id = ?',
  subWorkflow: 'select title from subworkflows where id = ?',
  feature: 'select title from features where id = ?',
  persona: 'select name from personas where id = ?',
  tag: 'select name from tags where id = ?',
} as const

/** A card's title or a persona's name as it is now (inside the write's transaction), for activity sentences. */
export const nameOf: NameOf = (kind, id) =>
  (prepared(`name-of-${kind}`, (db) => db.$client.prepare(NAME_SQL[kind]).pluck()).get(id) as
    string | undefined) ?? null
