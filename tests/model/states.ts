import { isDeepStrictEqual } from 'node:util'
import type { ProjectBundle } from '~/features/map/bundle-types'
import { rankBetween } from '~/features/map/rank'

/**
 * The model's side of ADR 12 (docs/decisions/0012-undo-and-trash.md): a bundle seen as a set of
 * entities, the difference of two bundles as one change's entries (each entity before and after),
 * and entities put back into a recorded state with the ADR's rules: only the fields the change
 * changed are written back, bookkeeping fields are not checked, a rank taken since becomes the
 * nearest free rank after it, and the listed conflicts refuse the whole write.
 */

export type Entity = Record<string, unknown> & { id: string }
export type Kind =
  | 'project'
  | 'milestone'
  | 'workflow'
  | 'subWorkflow'
  | 'feature'
  | 'featureComment'
  | 'persona'
  | 'workflowPersona'
  | 'tag'
export type ListKey = Exclude<keyof ProjectBundle, 'project' | 'version'>
export type Entry = { kind: Kind; id: string; before: Entity | null; after: Entity | null }
export type Transition = { kind: Kind; id: string; from: Entity | null; to: Entity | null }
export type Applied = { bundle: ProjectBundle } | { conflict: 'changed' | 'parent_missing'; why: string }

export const LIST_OF: Record<Exclude<Kind, 'project'>, ListKey> = {
  milestone: 'milestones',
  workflow: 'workflows',
  subWorkflow: 'subWorkflows',
  feature: 'features',
  featureComment: 'featureComments',
  persona: 'personas',
  workflowPersona: 'workflowPersonas',
  tag: 'tags',
}
const KINDS = Object.keys(LIST_OF) as Exclude<Kind, 'project'>[]

/** Parents first (inserts in this order, deletes in the reverse). */
const ORDER: Kind[] = [
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
/** Written back by an undo but not checked. */
const LOOSE = new Set(['kind', 'lastModified', 'lastModifiedByName'])
/** The fields naming the list a card's rank orders it in. */
export const RANK_SCOPE: Partial<Record<Kind, string[]>> = {
  milestone: ['projectId'],
  workflow: ['projectId'],
  subWorkflow: ['workflowId'],
  feature: ['subWorkflowId', 'milestoneId'],
}
/** Foreign keys: a child needs its parent, and deleting a parent takes the child along. */
export const PARENTS: Record<Kind, [field: string, kind: Kind][]> = {
  project: [],
  tag: [['projectId', 'project']],
  milestone: [['projectId', 'project']],
  workflow: [['projectId', 'project']],
  subWorkflow: [['workflowId', 'workflow']],
  feature: [
    ['milestoneId', 'milestone'],
    ['subWorkflowId', 'subWorkflow'],
  ],
  persona: [['projectId', 'project']],
  featureComment: [['featureId', 'feature']],
  workflowPersona: [
    ['workflowId', 'workflow'],
    ['personaId', 'persona'],
  ],
}

const same = (x: unknown, y: unknown) => isDeepStrictEqual(x, y)
const key = (kind: Kind, id: string) => `${kind}:${id}`

export function entitiesOf(b: ProjectBundle): Map<string, { kind: Kind; entity: Entity }> {
  const all = new Map<string, { kind: Kind; entity: Entity }>()
  all.set(key('project', b.project.id), { kind: 'project', entity: b.project as unknown as Entity })
  for (const kind of KINDS)
    for (const entity of (b[LIST_OF[kind]] ?? []) as unknown as Entity[])
      all.set(key(kind, entity.id), { kind, entity })
  return all
}

export function find(b: ProjectBundle, kind: Kind, id: unknown): Entity | null {
  if (kind === 'project') return b.project.id === id ? (b.project as unknown as Entity) : null
  return ((b[LIST_OF[kind]] ?? []) as unknown as Entity[]).find((e) => e.id === id) ?? null
}

/** The bundle with `entity` put in (replacing the one with its id) or, with `remove`, taken out. */
export function put(b: ProjectBundle, kind: Kind, entity: Entity, remove = false): ProjectBundle {
  if (kind === 'project') return { ...b, project: entity as unknown as ProjectBundle['project'] }
  const list = ((b[LIST_OF[kind]] ?? []) as unknown as Entity[]).filter((e) => e.id !== entity.id)
  return { ...b, [LIST_OF[kind]]: remove ? list : [...list, entity] }
}

/** What changed from `a` to `b`: one entry per entity that is new, gone or different. */
export function diff(a: ProjectBundle, b: ProjectBundle): Entry[] {
  const before = entitiesOf(a)
  const after = entitiesOf(b)
  const entries: Entry[] = []
  for (const k of new Set([...before.keys(), ...after.keys()])) {
    const x = before.get(k)
    const y = after.get(k)
    if (x && y && same(x.entity, y.entity)) continue
    entries.push({
      kind: (x ?? y)!.kind,
      id: (x ?? y)!.entity.id,
      before: x?.entity ?? null,
      after: y?.entity ?? null,
    })
  }
  return entries
}

const changedKeys = (a: Entity, b: Entity) => Object.keys(b).filter((k) => k !== 'kind' && !same(a[k], b[k]))

/** Why `now` is no longer as the change left it (null: it is). */
function changedSince(t: Transition, now: Entity | null): string | null {
  if (t.from === null) return now === null ? null : `${t.kind} ${t.id} is back already`
  if (now === null) return `${t.kind} ${t.id} has been deleted since`
  const keys = t.to === null ? Object.keys(t.from) : changedKeys(t.from, t.to)
  const moved = keys.filter((k) => !LOOSE.has(k) && k !== 'rank' && !same(now[k], t.from![k]))
  if (moved.length > 0 || (t.to !== null && keys.includes('rank') && now.rank !== t.from.rank))
    return `${t.kind} ${t.id} has been changed since (${moved.join(', ') || 'rank'})`
  return null
}

/** The entity's own rank, or the nearest free one after it when another card of its list holds it. */
function freeRank(b: ProjectBundle, kind: Kind, entity: Entity): string | null {
  const scope = RANK_SCOPE[kind]!
  const wanted = String(entity.rank)
  const others = ((b[LIST_OF[kind as 'feature']] ?? []) as unknown as Entity[]).filter(
    (e) => e.id !== entity.id && scope.every((f) => e[f] === entity[f]),
  )
  if (!others.some((e) => e.rank === wanted)) return wanted
  const later = others.map((e) => String(e.rank)).filter((r) => r > wanted && !r.startsWith('~'))
  return rankBetween(wanted, later.length > 0 ? later.sort()[0] : null)
}

function missingParent(b: ProjectBundle, kind: Kind, entity: Entity): string | null {
  for (const [field, parentKind] of PARENTS[kind])
    if (!find(b, parentKind, entity[field]))
      return `${kind} ${entity.id} needs ${parentKind} ${String(entity[field])}`
  return null
}

/** ADR 12's applyStates on a bundle: every transition or none. */
export function applyStates(b: ProjectBundle, transitions: Transition[]): Applied {
  const ts = [...transitions].sort((x, y) => ORDER.indexOf(x.kind) - ORDER.indexOf(y.kind))
  for (const t of ts) {
    const why = changedSince(t, find(b, t.kind, t.id))
    if (why) return { conflict: 'changed', why }
  }
  let next = b
  const deleted = new Set<string>()
  for (const t of ts.filter((t) => t.from !== null && t.to === null).reverse()) {
    next = put(next, t.kind, t.from!, true)
    deleted.add(t.id)
  }
  for (const { kind, entity } of entitiesOf(next).values())
    for (const [field] of PARENTS[kind])
      if (deleted.has(String(entity[field])))
        return { conflict: 'changed', why: `${kind} ${entity.id} was added under it since` }
  // Cards whose list or rank changes leave their rank first, so ranks can swap.
  const ranked = (t: Transition) =>
    RANK_SCOPE[t.kind] &&
    t.from &&
    t.to &&
    changedKeys(t.from, t.to).some((k) => k === 'rank' || RANK_SCOPE[t.kind]!.includes(k))
  for (const t of ts.filter(ranked))
    next = put(next, t.kind, { ...find(next, t.kind, t.id)!, rank: `~${t.id}` })
  for (const t of ts) {
    if (t.to === null) continue
    const current = t.from === null ? null : find(next, t.kind, t.id)!
    const values =
      t.from === null ? t.to : Object.fromEntries(changedKeys(t.from, t.to).map((k) => [k, t.to![k]]))
    if (t.from !== null && Object.keys(values).length === 0) continue
    const entity: Entity = { ...(current ?? {}), ...values, id: t.id }
    const missing = missingParent(next, t.kind, entity)
    if (missing) return { conflict: 'parent_missing', why: missing }
    if (RANK_SCOPE[t.kind] && (t.from === null || ranked(t))) {
      const rank = freeRank(next, t.kind, { ...entity, rank: t.to.rank })
      if (rank === null) return { conflict: 'changed', why: 'no room left at its old place' }
      entity.rank = rank
    }
    next = put(next, t.kind, entity)
  }
  // A feature's tags are ids, not foreign keys: what points at a tag that is gone comes off (CONTRACT §12).
  if (ts.some((t) => t.kind === 'tag' || t.kind === 'feature')) next = withoutGoneTags(next)
  return { bundle: next }
}

function withoutGoneTags(b: ProjectBundle): ProjectBundle {
  const tags = new Set((b.tags ?? []).map((t) => t.id))
  if (!b.features.some((f) => (f.tagIds ?? []).some((id) => !tags.has(id)))) return b
  return {
    ...b,
    features: b.features.map((f) =>
      (f.tagIds ?? []).every((id) => tags.has(id))
        ? f
        : { ...f, tagIds: (f.tagIds ?? []).filter((id) => tags.has(id)) },
    ),
  }
}
