import type { ProjectBundle } from './bundle-types'

type Entity = { id: string }
type ListKey = Exclude<keyof ProjectBundle, 'project' | 'version'>
const LIST_KEYS: ListKey[] = [
  'milestones',
  'workflows',
  'subWorkflows',
  'features',
  'featureComments',
  'personas',
  'workflowPersonas',
  'tags',
]

function shallowEqual(a: object, b: object): boolean {
  const keys = Object.keys(a)
  if (keys.length !== Object.keys(b).length) return false
  return keys.every((k) => {
    const x = (a as Record<string, unknown>)[k]
    const y = (b as Record<string, unknown>)[k]
    // A list field (a feature's tag ids) arrives as a new array each time: compare its items;
    // an object field (a feature's GitHub issue) by its content.
    if (
      x === y ||
      (Array.isArray(x) && Array.isArray(y) && x.length === y.length && x.every((v, i) => v === y[i]))
    )
      return true
    return (
      x !== null &&
      y !== null &&
      typeof x === 'object' &&
      typeof y === 'object' &&
      JSON.stringify(x) === JSON.stringify(y)
    )
  })
}

function shareList<T extends Entity>(previous: T[], next: T[]): T[] {
  const before = new Map(previous.map((item) => [item.id, item]))
  let changed = previous.length !== next.length
  const shared = next.map((item, i) => {
    const old = before.get(item.id)
    const kept = old && shallowEqual(old, item) ? old : item
    if (kept !== previous[i]) changed = true
    return kept
  })
  return changed ? shared : previous
}

/**
 * `next` (fresh loader data) with every entity and list that equals its `previous` copy
 * replaced by that copy. After each edit the whole map is reloaded; this keeps the objects of
 * untouched cards, so only what changed re-renders.
 */
export function shareUnchangedEntities(
  previous: ProjectBundle | undefined,
  next: ProjectBundle,
): ProjectBundle {
  if (!previous || previous === next) return next
  const shared = {
    ...next,
    project: shallowEqual(previous.project, next.project) ? previous.project : next.project,
  }
  const lists = shared as Record<ListKey, Entity[]>
  for (const key of LIST_KEYS) lists[key] = shareList(previous[key] as Entity[], next[key] as Entity[])
  return shared
}
