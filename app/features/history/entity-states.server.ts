import type Database from 'better-sqlite3'
import { getDb } from '~/lib/db/db.server'
import { ENTITY_SPECS, jsonObjectSql, tableNameOf, type EntitySpec } from '~/features/map/entity-json.server'
import type { Entity } from '../map/activity-sentence'
import { rankBetween } from '~/features/map/rank'

/**
 * Puts entities back into a recorded state (undo, redo, restore from the trash; ADR 12): each
 * entity goes from the state `from` a change left it in to the state `to` (null: absent). Only
 * what the change itself changed is written, so edits others made since to other fields stay;
 * and every entity must still be as the change left it on those fields, else StateConflict and
 * the caller's transaction rolls back. Runs inside a logged write, so the result is captured
 * like any other change.
 */
export type StateTransition = { kind: string; id: string; from: Entity | null; to: Entity | null }

export class StateConflict extends Error {
  constructor(
    readonly reason: 'changed' | 'parent_missing',
    message: string,
  ) {
    super(message)
  }
}

/** Bookkeeping fields: an undo writes them back but does not insist on them. */
const LOOSE = new Set(['kind', 'lastModified', 'lastModifiedByName'])
/** Parents first: inserts go in this order, deletes in the reverse. */
const ORDER = [
  'project',
  'tag',
  'workflow',
  'milestone',
  'subWorkflow',
  'feature',
  'persona',
  'featureComment',
  'workflowPersona',
]
/** The list a card's rank orders it in. */
const RANK_SCOPE: Record<string, string[]> = {
  milestone: ['projectId'],
  workflow: ['projectId'],
  subWorkflow: ['workflowId'],
  feature: ['subWorkflowId', 'milestoneId'],
}

const SPEC_OF = new Map(ENTITY_SPECS.map((spec) => [spec.changeKind, spec]))
const column = (spec: EntitySpec, key: string) => `"${spec.fields[key].name}"`
const statementCache = new WeakMap<Database.Database, Map<string, Database.Statement>>()
function statement(sql: string): Database.Statement {
  const client = getDb().$client
  let cache = statementCache.get(client)
  if (!cache) statementCache.set(client, (cache = new Map()))
  let prepared = cache.get(sql)
  if (!prepared) cache.set(sql, (prepared = client.prepare(sql)))
  return prepared
}

function specOf(kind: string): EntitySpec {
  const spec = SPEC_OF.get(kind as EntitySpec['changeKind'])
  if (!spec) throw new Error(`unknown entity kind ${kind}`)
  return spec
}

function current(spec: EntitySpec, id: string): Entity | null {
  const json = statement(`select ${jsonObjectSql(spec)} from "${tableNameOf(spec)}" where id = ?`)
    .pluck()
    .get(id) as string | undefined
  return json === undefined ? null : JSON.parse(json)
}

/** An entity as the API shows it now, or null. */
export const currentEntity = (kind: string, id: string) => current(specOf(kind), id)

const isJson = (value: unknown) => value !== null && typeof value === 'object'
/** Field values compared as the API shows them: a list (a feature's tag ids) or object (its GitHub issue) by its content. */
const same = (x: unknown, y: unknown) =>
  x === y || (isJson(x) && isJson(y) && JSON.stringify(x) === JSON.stringify(y))
/** A field value as its column keeps it: lists and objects as JSON text. */
const stored = (value: unknown) => (isJson(value) ? JSON.stringify(value) : (value ?? null))

const changedKeys = (a: Entity, b: Entity) =>
  Object.keys(b).filter((key) => key !== 'kind' && !same(a[key], b[key]))

function assertUnchanged(t: StateTransition, now: Entity | null, describe: (t: StateTransition) => string) {
  if (t.from === null) {
    if (now !== null) throw new StateConflict('changed', `${describe(t)} is back already.`)
    return
  }
  if (now === null) throw new StateConflict('changed', `${describe(t)} has been deleted since.`)
  const keys = t.to === null ? Object.keys(t.from) : changedKeys(t.from, t.to)
  const moved = keys.filter((key) => !LOOSE.has(key) && key !== 'rank' && !same(now[key], t.from![key]))
  // A sibling's rank may have been rewritten under it; the card's own rank must be as left.
  if (moved.length > 0 || (t.to !== null && keys.includes('rank') && now.rank !== t.from.rank))
    throw new StateConflict('changed', `${describe(t)} has been changed since.`)
}

/** Whether a card's transition changes its place: its rank, or the list its rank orders it in. */
function movesInItsList(t: StateTransition): boolean {
  const scope = RANK_SCOPE[t.kind]
  if (!scope || t.from === null || t.to === null) return false
  const changed = changedKeys(t.from, t.to)
  return changed.includes('rank') || scope.some((key) => changed.includes(key))
}

/**
 * A feature's tags are ids in a list, not foreign keys: a put-back that takes a tag away (an undone
 * create) or brings back a feature that carried a tag deleted since takes those ids off the
 * project's features, as deleting a tag does (CONTRACT §12). Captured like the rest of the change.
 */
function dropGoneTags(transitions: StateTransition[]) {
  const projects = new Set<string>()
  for (const t of transitions) {
    const state = t.to ?? t.from
    if ((t.kind === 'tag' || t.kind === 'feature') && typeof state?.projectId === 'string')
      projects.add(state.projectId)
  }
  for (const projectId of projects) {
    statement(
      `update features set tag_ids = (
         select coalesce(json_group_array(t.value), '[]') from json_each(features.tag_ids) as t
         where t.value in (select id from tags where tags.project_id = features.project_id))
       where project_id = ? and exists (
         select 1 from json_each(features.tag_ids) as t
         where t.value not in (select id from tags where tags.project_id = features.project_id))`,
    ).run(projectId)
  }
}

/** A rank for `entity` in its list: its own, or the nearest free one after it when another card took it. */
function freeRank(spec: EntitySpec, entity: Entity): string {
  const scope = RANK_SCOPE[spec.changeKind]
  const where = scope.map((key) => `${column(spec, key)} = ?`).join(' and ')
  const values = scope.map((key) => entity[key])
  const table = `"${tableNameOf(spec)}"`
  const wanted = String(entity.rank)
  const taken = statement(`select 1 from ${table} where ${where} and rank = ? and id <> ?`).get(
    ...values,
    wanted,
    entity.id,
  )
  if (!taken) return wanted
  const next = statement(`select min(rank) from ${table} where ${where} and rank > ? and id <> ?`)
    .pluck()
    .get(...values, wanted, entity.id) as string | null
  const rank = rankBetween(wanted, next && !next.startsWith('~') ? next : null)
  if (rank === null) throw new StateConflict('changed', 'There is no room left at its old place.')
  return rank
}

function insert(spec: EntitySpec, entity: Entity) {
  const keys = Object.keys(spec.fields)
  const row: Record<string, unknown> = { ...entity }
  if (RANK_SCOPE[spec.changeKind]) row.rank = freeRank(spec, entity)
  statement(
    `insert into "${tableNameOf(spec)}" (${keys.map((k) => column(spec, k)).join(', ')}) values (${keys.map(() => '?').join(', ')})`,
  ).run(...keys.map((key) => stored(row[key])))
}

function update(spec: EntitySpec, id: string, values: Record<string, unknown>) {
  const keys = Object.keys(values)
  if (keys.length === 0) return
  statement(
    `update "${tableNameOf(spec)}" set ${keys.map((k) => `${column(spec, k)} = ?`).join(', ')} where id = ?`,
  ).run(...keys.map((key) => stored(values[key])), id)
}

const isForeignKeyError = (error: unknown) =>
  (error as { code?: string }).code === 'SQLITE_CONSTRAINT_FOREIGNKEY'

/** Applies the transitions (see above); every entity deleted on the way must be one of them. */
export function applyStates(transitions: StateTransition[], describe: (t: StateTransition) => string) {
  const byOrder = [...transitions].sort((a, b) => ORDER.indexOf(a.kind) - ORDER.indexOf(b.kind))
  for (const t of byOrder) assertUnchanged(t, current(specOf(t.kind), t.id), describe)

  const deletes = byOrder.filter((t) => t.from !== null && t.to === null).reverse()
  for (const t of deletes) statement(`delete from "${tableNameOf(specOf(t.kind))}" where id = ?`).run(t.id)

  // Cards whose rank or list changes are parked first ('~' sorts after a–z), so ranks can swap.
  const updates = byOrder.filter((t) => t.from !== null && t.to !== null)
  const reranked = updates.filter((t) => movesInItsList(t))
  for (const t of reranked) update(specOf(t.kind), t.id, { rank: `~${t.id}` })
  for (const t of byOrder) {
    const spec = specOf(t.kind)
    try {
      if (t.from === null && t.to !== null) insert(spec, t.to)
      else if (t.from !== null && t.to !== null) {
        const values = Object.fromEntries(changedKeys(t.from, t.to).map((key) => [key, t.to![key]]))
        // Back into another list at the same rank: a card there may have taken it since.
        if (movesInItsList(t)) values.rank = freeRank(spec, t.to)
        update(spec, t.id, values)
      }
    } catch (error) {
      if (isForeignKeyError(error))
        throw new StateConflict(
          'parent_missing',
          `${describe(t)} cannot go back: what it belongs to is gone.`,
        )
      throw error
    }
  }
  dropGoneTags(byOrder)
  const expected = new Set(deletes.map((t) => `${t.kind}:${t.id}`))
  const cascaded = statement('select kind, id from temp.change_capture where new is null').all() as {
    kind: string
    id: string
  }[]
  if (cascaded.some((row) => !expected.has(`${row.kind}:${row.id}`)))
    throw new StateConflict('changed', 'Something has been added under it since.')
}
