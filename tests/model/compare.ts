import type { ProjectBundle } from '~/features/map/bundle-types'
import { isRank } from '~/features/map/rank'
import { RANK_SCOPE, type Kind } from './states'

/**
 * What "the server holds what the model says" compares. Kept: ids, titles, descriptions, ranks
 * (and so the order of every card list), parents, status, colour, annotations, estimates, tags
 * on features, who created a card or wrote a comment (member ids), comment texts, tag names and
 * colours. Left out: times and display names (the model's clock is not the server's), and
 * workspace ids (the reducer leaves them to the server).
 *
 * The server's lists are taken in the order it sends them and the model's are sorted by the
 * bundle's orders (CONTRACT §3), so a server that sorts wrongly fails too; comments are compared
 * by id because their order is by creation time (checked on the server's bundle alone).
 */

const CARD = ['id', 'rank', 'title', 'description', 'color', 'status', 'annotations', 'createdBy']
const FIELDS = {
  milestones: [...CARD, 'projectId'],
  workflows: [...CARD, 'projectId'],
  subWorkflows: [...CARD, 'workflowId'],
  features: [...CARD, 'projectId', 'milestoneId', 'subWorkflowId', 'estimate', 'tagIds'],
  featureComments: ['id', 'featureId', 'memberId', 'post'],
  personas: ['id', 'name', 'avatar', 'role', 'description'],
  workflowPersonas: ['id', 'workflowId', 'personaId'],
  tags: ['id', 'projectId', 'name', 'color'],
} as const
type Row = Record<string, unknown>

const text = (a: unknown, b: unknown) => (String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0)
const ORDER: Record<keyof typeof FIELDS, (a: Row, b: Row) => number> = {
  milestones: (a, b) => text(a.rank, b.rank),
  workflows: (a, b) => text(a.rank, b.rank),
  subWorkflows: (a, b) => text(a.rank, b.rank) || text(a.id, b.id),
  features: (a, b) => text(a.rank, b.rank) || text(a.id, b.id),
  featureComments: (a, b) => text(a.id, b.id),
  personas: (a, b) => text(a.name, b.name) || text(a.id, b.id),
  workflowPersonas: (a, b) => text(a.id, b.id),
  tags: (a, b) => text(String(a.name).toLowerCase(), String(b.name).toLowerCase()) || text(a.id, b.id),
}

const pick = (row: Row, fields: readonly string[]) =>
  Object.fromEntries(fields.map((f) => [f, row[f] ?? null]))

/** The compared part of a bundle; `sort` orders the lists as the bundle should (the model's). */
export function comparable(b: ProjectBundle, sort: boolean) {
  const lists = Object.fromEntries(
    (Object.keys(FIELDS) as (keyof typeof FIELDS)[]).map((key) => {
      const rows = [...((b[key] ?? []) as unknown as Row[])]
      if (sort || key === 'featureComments') rows.sort(ORDER[key])
      return [key, rows.map((row) => pick(row, FIELDS[key]))]
    }),
  )
  return { project: pick(b.project as unknown as Row, ['id', 'title', 'description']), ...lists }
}

const LIST_KIND: [keyof ProjectBundle, Kind][] = [
  ['milestones', 'milestone'],
  ['workflows', 'workflow'],
  ['subWorkflows', 'subWorkflow'],
  ['features', 'feature'],
]

/** What must hold of any bundle the server sends: parents exist, tags are the project's, ranks are unique per list. */
export function bundleProblems(b: ProjectBundle): string[] {
  const problems: string[] = []
  const ids = (list: { id: string }[] = []) => new Set(list.map((x) => x.id))
  const [milestones, workflows, activities, features, tags] = [
    b.milestones,
    b.workflows,
    b.subWorkflows,
    b.features,
    b.tags,
  ].map(ids)
  for (const s of b.subWorkflows)
    if (!workflows.has(s.workflowId)) problems.push(`activity ${s.id} has no goal`)
  for (const f of b.features) {
    if (!milestones.has(f.milestoneId) || !activities.has(f.subWorkflowId))
      problems.push(`feature ${f.id} has no cell`)
    for (const t of f.tagIds ?? [])
      if (!tags.has(t)) problems.push(`feature ${f.id} carries tag ${t}, not a tag of the project`)
    if (new Set(f.tagIds).size !== (f.tagIds ?? []).length)
      problems.push(`feature ${f.id} carries a tag twice`)
  }
  for (const c of b.featureComments)
    if (!features.has(c.featureId)) problems.push(`comment ${c.id} has no feature`)
  for (const [key, kind] of LIST_KIND) {
    const seen = new Set<string>()
    for (const card of b[key] as unknown as Row[]) {
      const place = [...RANK_SCOPE[kind]!.map((f) => card[f]), card.rank].join('|')
      if (seen.has(place))
        problems.push(`${kind} ${String(card.id)} shares its rank ${String(card.rank)} in its list`)
      if (!isRank(card.rank)) problems.push(`${kind} ${String(card.id)} has rank ${String(card.rank)}`)
      seen.add(place)
    }
  }
  const times = b.featureComments.map((c) => c.createdAt)
  if (times.some((t, i) => i > 0 && t > times[i - 1])) problems.push('comments are not newest first')
  return problems
}

/** Nothing left on the map but the project itself. */
export function isEmptyMap(b: ProjectBundle) {
  return [
    b.milestones,
    b.workflows,
    b.subWorkflows,
    b.features,
    b.featureComments,
    b.personas,
    b.workflowPersonas,
    b.tags ?? [],
  ].every((list) => list.length === 0)
}
