import type { ProjectBundle, ProjectEntity } from '~/features/map/bundle-types'

/**
 * Live changes (CONTRACT §6) merged into a board's copy of a project. Pure: the board applies
 * each event to the newest server copy it holds; the user's own pending edits are laid over the
 * result as before (app/features/board/ui/board-context.tsx).
 */

export type ChangeKind =
  | 'project'
  | 'milestone'
  | 'workflow'
  | 'subWorkflow'
  | 'feature'
  | 'featureComment'
  | 'persona'
  | 'workflowPersona'
  | 'tag'

export type EntityChange =
  | { op: 'upsert'; kind: ChangeKind; entity: { id: string } & Record<string, unknown> }
  | { op: 'delete'; kind: ChangeKind; id: string }

export type ChangeEvent = {
  version: number
  at: string
  by: { memberId: string; name: string }
  changes: EntityChange[]
  /** The activity sentence (CONTRACT §7). */
  summary?: string
}

type ListKey = Exclude<keyof ProjectBundle, 'project' | 'version'>
type Entity = { id: string }

const LIST_OF: Record<Exclude<ChangeKind, 'project'>, ListKey> = {
  milestone: 'milestones',
  workflow: 'workflows',
  subWorkflow: 'subWorkflows',
  feature: 'features',
  featureComment: 'featureComments',
  persona: 'personas',
  workflowPersona: 'workflowPersonas',
  tag: 'tags',
}

// The bundle's orders (CONTRACT §3), compared as SQLite compares text (by code unit).
const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
type Row = Record<string, string>
const ORDER: Record<ListKey, (a: Row, b: Row) => number> = {
  milestones: (a, b) => compare(a.rank, b.rank),
  workflows: (a, b) => compare(a.rank, b.rank),
  subWorkflows: (a, b) => compare(a.rank, b.rank) || compare(a.id, b.id),
  features: (a, b) => compare(a.rank, b.rank) || compare(a.id, b.id),
  featureComments: (a, b) => compare(b.createdAt, a.createdAt) || compare(b.id, a.id),
  personas: (a, b) => compare(a.name, b.name) || compare(a.id, b.id),
  workflowPersonas: (a, b) => compare(a.id, b.id),
  tags: (a, b) => compare(a.name.toLowerCase(), b.name.toLowerCase()) || compare(a.id, b.id),
}

/**
 * The bundle after one change event: upserted entities replace or join their lists (kept in
 * the bundle's order), deleted ones leave; every untouched entity and list stays the same
 * object, so only what changed re-renders. A project delete is the caller's to handle.
 */
export function applyChangeEvent(bundle: ProjectBundle, event: ChangeEvent): ProjectBundle {
  const upserts = new Map<ListKey, Map<string, Entity>>()
  const deletes = new Map<ListKey, Set<string>>()
  let project: ProjectEntity = bundle.project
  for (const change of event.changes) {
    if (change.kind === 'project') {
      // Events leave the share key out (CONTRACT §6): the board keeps the one it has.
      if (change.op === 'upsert') project = { ...project, ...(change.entity as unknown as ProjectEntity) }
      continue
    }
    const key = LIST_OF[change.kind]
    if (!key) continue
    if (change.op === 'upsert') {
      if (!upserts.has(key)) upserts.set(key, new Map())
      upserts.get(key)!.set(change.entity.id, change.entity)
      deletes.get(key)?.delete(change.entity.id)
    } else {
      if (!deletes.has(key)) deletes.set(key, new Set())
      deletes.get(key)!.add(change.id)
      upserts.get(key)?.delete(change.id)
    }
  }
  const next: ProjectBundle = { ...bundle, project, version: event.version }
  for (const key of new Set<ListKey>([...upserts.keys(), ...deletes.keys()])) {
    const list = bundle[key] as Entity[]
    ;(next as Record<ListKey, Entity[]>)[key] = mergeList(
      list,
      upserts.get(key),
      deletes.get(key),
      ORDER[key],
    )
  }
  return next
}

function mergeList(
  list: Entity[],
  upserts: Map<string, Entity> | undefined,
  deletes: Set<string> | undefined,
  order: (a: Row, b: Row) => number,
): Entity[] {
  const pending = new Map(upserts)
  let reorder = false
  const merged: Entity[] = []
  for (const item of list) {
    if (deletes?.has(item.id)) continue
    const replacement = pending.get(item.id)
    if (replacement) {
      pending.delete(item.id)
      if (order(item as unknown as Row, replacement as unknown as Row) !== 0) reorder = true
      merged.push(replacement)
    } else merged.push(item)
  }
  if (pending.size > 0) {
    merged.push(...pending.values())
    reorder = true
  }
  return reorder ? merged.sort(order as (a: Entity, b: Entity) => number) : merged
}

/** The ids an event deletes (an open dialog of one of them says who deleted it). */
export function deletedIds(event: ChangeEvent): string[] {
  return event.changes.filter((c) => c.op === 'delete').map((c) => (c as { id: string }).id)
}

export const isProjectDeleted = (event: ChangeEvent) =>
  event.changes.some((c) => c.op === 'delete' && c.kind === 'project')

/**
 * For each card an event deletes, the card the delete began at: the trash entry that holds it
 * (CONTRACT §7: a goal's delete takes its activities and their features into one entry). Read
 * against `bundle`, the board as it was before the event.
 */
export function deletionRoots(
  bundle: Pick<ProjectBundle, 'features' | 'subWorkflows'>,
  event: ChangeEvent,
): Map<string, string> {
  const deleted = new Set(deletedIds(event))
  const activityGoal = new Map(bundle.subWorkflows.map((s) => [s.id, s.workflowId]))
  const parentsOf = new Map<string, string[]>()
  for (const f of bundle.features)
    if (deleted.has(f.id)) parentsOf.set(f.id, [f.subWorkflowId, f.milestoneId])
  for (const id of deleted) {
    const goal = activityGoal.get(id)
    if (goal) parentsOf.set(id, [goal])
  }
  const rootOf = (id: string): string => {
    const parent = (parentsOf.get(id) ?? []).find((p) => deleted.has(p))
    return parent ? rootOf(parent) : id
  }
  return new Map([...deleted].map((id) => [id, rootOf(id)]))
}
