import { ANNOTATION_LABELS, annotationList } from '~/features/map/vocabulary'
import { COLOR_SWATCHES } from '~/features/map/colors'

/**
 * The activity feed's sentence for one change (CONTRACT §7): what happened, to which cards,
 * titles quoted. Pure: the command, what every entity was before and became after, and a way
 * to name a parent card by id.
 */

export type Entity = Record<string, unknown> & { id: string }
export type SummaryEntry = { kind: string; id: string; before: Entity | null; after: Entity | null }
/** The title (or persona name) of an entity by kind and id, as it is now. */
export type NameOf = (
  kind: 'milestone' | 'workflow' | 'subWorkflow' | 'feature' | 'persona' | 'tag',
  id: string,
) => string | null

/** What users call each kind (change kinds, and the commands' `subworkflow`). */
export const NOUN: Record<string, string> = {
  project: 'project',
  milestone: 'release',
  workflow: 'goal',
  subWorkflow: 'activity',
  subworkflow: 'activity',
  feature: 'feature',
  featureComment: 'comment',
  persona: 'persona',
  workflowPersona: 'persona on a goal',
  tag: 'tag',
}
const CARD_KIND: Record<string, string> = {
  project: 'project',
  milestone: 'milestone',
  workflow: 'workflow',
  subworkflow: 'subWorkflow',
  feature: 'feature',
}

const quote = (text: unknown) => `'${String(text ?? '')}'`
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`

type Command = { type: string; kind?: string; id?: string } & Record<string, unknown>

/**
 * Whether a change is a step of its member's undo on the board: a project coming or going
 * (created, imported, duplicated, deleted, restored) is not; the project list's trash handles it.
 */
export function isBoardUndoStep(entries: readonly SummaryEntry[]): boolean {
  return !entries.some((e) => e.kind === 'project' && (e.before === null || e.after === null))
}

/** What is removed under a deleted card, e.g. `(2 activities, 5 features)`; empty when nothing. */
export function removedCount(entries: readonly SummaryEntry[], rootId: string): string {
  const gone = (kind: string) =>
    entries.filter((e) => e.kind === kind && e.after === null && e.id !== rootId).length
  const parts = []
  const activities = gone('subWorkflow')
  const features = gone('feature')
  if (activities > 0) parts.push(plural(activities, 'activity', 'activities'))
  if (features > 0) parts.push(plural(features, 'feature', 'features'))
  return parts.length > 0 ? ` (${parts.join(', ')})` : ''
}

function colorName(color: unknown): string {
  const swatch = COLOR_SWATCHES[String(color) as keyof typeof COLOR_SWATCHES]
  return swatch ? swatch.label.toLowerCase() : String(color).toLowerCase()
}

function moveSummary(noun: string, before: Entity, after: Entity, nameOf: NameOf): string {
  const title = quote(after.title)
  if (noun === 'feature') {
    const places = []
    if (before.milestoneId !== after.milestoneId)
      places.push(`release ${quote(nameOf('milestone', String(after.milestoneId)))}`)
    if (before.subWorkflowId !== after.subWorkflowId)
      places.push(`activity ${quote(nameOf('subWorkflow', String(after.subWorkflowId)))}`)
    return places.length > 0
      ? `Moved feature ${title} to ${places.join(' and ')}`
      : `Moved feature ${title} within its cell`
  }
  if (noun === 'activity' && before.workflowId !== after.workflowId)
    return `Moved activity ${title} to goal ${quote(nameOf('workflow', String(after.workflowId)))}`
  return `Moved ${noun} ${title}`
}

/** The sentence for a board command's change. */
export function summarizeChange(command: Command, entries: readonly SummaryEntry[], nameOf: NameOf): string {
  const find = (kind: string, id: string | undefined) => entries.find((e) => e.kind === kind && e.id === id)
  const kind = command.kind ? CARD_KIND[command.kind] : undefined
  const entry = kind ? find(kind, command.id) : undefined
  const noun = command.kind ? NOUN[command.kind] : ''
  const now = entry?.after ?? entry?.before
  const title = quote(now?.title)
  switch (command.type) {
    case 'project.create':
      return `Created project ${quote(find('project', command.id)?.after?.title)}`
    case 'project.import':
      return `Imported project ${quote(find('project', command.id)?.after?.title)} (${plural(Number(command.cards ?? 0), 'card', 'cards')})`
    case 'project.template':
      return `Created project ${quote(String(command.title ?? ''))} from template ${quote(String(command.templateTitle ?? ''))}`
    case 'project.draft':
      return `Created project ${quote(String(command.title ?? ''))} from a draft`
    case 'project.duplicate':
      return `Duplicated project ${quote(command.fromTitle ?? '')} as ${quote(find('project', command.id)?.after?.title)}`
    case 'milestone.create':
    case 'workflow.create':
    case 'subworkflow.create':
    case 'feature.create': {
      const created = command.type.split('.')[0]
      const e = find(CARD_KIND[created], command.id)
      return `Added ${NOUN[created]} ${quote(e?.after?.title)}`
    }
    case 'card.rename':
      return `Renamed ${noun} ${quote(entry?.before?.title)} to ${quote(entry?.after?.title)}`
    case 'card.description':
      return `Changed the description of ${noun} ${title}`
    case 'card.open':
      return `Reopened ${noun} ${title}`
    case 'card.close':
      return `Closed ${noun} ${title}`
    case 'card.color':
      return now?.color
        ? `Colored ${noun} ${title} ${colorName(now.color)}`
        : `Removed the color of ${noun} ${title}`
    case 'card.annotations': {
      const labels = annotationList(String(now?.annotations ?? '')).map((a) => ANNOTATION_LABELS[a])
      return labels.length > 0
        ? `Marked ${noun} ${title} as ${labels.join(', ')}`
        : `Cleared the annotations of ${noun} ${title}`
    }
    case 'card.delete':
      return `Deleted ${noun} ${title}${removedCount(entries, String(command.id))}`
    case 'feature.estimate': {
      // The command names no kind: the feature is found by its id.
      const sized = find('feature', command.id)?.after
      return `Set the size of feature ${quote(sized?.title)} to ${String(sized?.estimate ?? 0)}`
    }
    case 'milestone.move':
    case 'workflow.move':
    case 'subworkflow.move':
    case 'feature.move': {
      const moved = command.type.split('.')[0]
      const e = find(CARD_KIND[moved], command.id)
      return e?.before && e.after
        ? moveSummary(NOUN[moved], e.before, e.after, nameOf)
        : `Moved ${NOUN[moved]}`
    }
    case 'comment.create':
    case 'comment.edit':
    case 'comment.delete': {
      const comment = find('featureComment', command.id)
      const featureId = String((comment?.after ?? comment?.before)?.featureId ?? command.featureId ?? '')
      const on = quote(nameOf('feature', featureId))
      if (command.type === 'comment.create') return `Commented on feature ${on}`
      return command.type === 'comment.edit'
        ? `Edited a comment on feature ${on}`
        : `Deleted a comment on feature ${on}`
    }
    case 'persona.create': {
      const persona = find('persona', command.id)?.after
      const link = entries.find((e) => e.kind === 'workflowPersona' && e.after)
      const goal = link ? ` to goal ${quote(nameOf('workflow', String(link.after!.workflowId)))}` : ''
      return `Added persona ${quote(persona?.name)}${goal}`
    }
    case 'persona.update': {
      const persona = find('persona', command.id)
      return persona?.before && persona.after && persona.before.name !== persona.after.name
        ? `Renamed persona ${quote(persona.before.name)} to ${quote(persona.after.name)}`
        : `Edited persona ${quote(persona?.after?.name)}`
    }
    case 'persona.delete':
      return `Deleted persona ${quote(find('persona', command.id)?.before?.name)}`
    case 'workflowPersona.create':
    case 'workflowPersona.delete': {
      const link = find('workflowPersona', command.id)
      const state = link?.after ?? link?.before
      const persona = quote(nameOf('persona', String(state?.personaId)))
      const goal = quote(nameOf('workflow', String(state?.workflowId)))
      return command.type === 'workflowPersona.create'
        ? `Put persona ${persona} on goal ${goal}`
        : `Took persona ${persona} off goal ${goal}`
    }
    case 'tag.create':
      return `Added tag ${quote(find('tag', command.id)?.after?.name)}`
    case 'tag.rename': {
      const tag = find('tag', command.id)
      return `Renamed tag ${quote(tag?.before?.name)} to ${quote(tag?.after?.name)}`
    }
    case 'tag.color': {
      const tag = find('tag', command.id)?.after
      return `Colored tag ${quote(tag?.name)} ${colorName(tag?.color)}`
    }
    case 'tag.delete': {
      const tagged = entries.filter((e) => e.kind === 'feature').length
      const from = tagged > 0 ? ` (from ${plural(tagged, 'feature', 'features')})` : ''
      return `Deleted tag ${quote(find('tag', command.id)?.before?.name)}${from}`
    }
    case 'feature.tags': {
      const feature = find('feature', command.id)?.after
      const names = ((feature?.tagIds as string[] | undefined) ?? []).map((id) => quote(nameOf('tag', id)))
      return names.length > 0
        ? `Tagged feature ${quote(feature?.title)} ${names.join(', ')}`
        : `Removed the tags of feature ${quote(feature?.title)}`
    }
    default:
      return 'Changed the map'
  }
}

/** Kinds whose deletion goes to the trash (CONTRACT §7), with the parents that make one a root. */
export const TRASHED_KINDS = ['project', 'milestone', 'workflow', 'subWorkflow', 'feature'] as const
export type TrashedKind = (typeof TRASHED_KINDS)[number]
export const CARD_KINDS_COUNTED = new Set(['milestone', 'workflow', 'subWorkflow', 'feature'])

const PARENTS: Record<TrashedKind, string[]> = {
  project: [],
  milestone: ['projectId'],
  workflow: ['projectId'],
  subWorkflow: ['workflowId'],
  feature: ['milestoneId', 'subWorkflowId'],
}

/**
 * The deleted cards of a change that go to the trash as entries of their own: those whose
 * parents were not deleted with them. Each holds its subtree (`cards` counts it and every card
 * under it).
 */
export function trashRoots(entries: readonly SummaryEntry[]): { entry: SummaryEntry; cards: number }[] {
  const deleted = entries.filter((e) => e.after === null && e.before !== null)
  const deletedIds = new Set(deleted.map((e) => e.id))
  const roots = deleted.filter(
    (e) =>
      (TRASHED_KINDS as readonly string[]).includes(e.kind) &&
      !PARENTS[e.kind as TrashedKind].some((field) => deletedIds.has(String(e.before![field]))),
  )
  if (roots.length === 0) return []
  const cards = deleted.filter((e) => CARD_KINDS_COUNTED.has(e.kind)).length
  // One root per delete command; a project holds every card of the change, and counts itself.
  return roots.map((entry) => ({
    entry,
    cards: entry.kind === 'project' ? cards + 1 : countUnder(entry, deleted),
  }))
}

function countUnder(root: SummaryEntry, deleted: SummaryEntry[]): number {
  const under = new Set([root.id])
  let grew = true
  while (grew) {
    grew = false
    for (const e of deleted) {
      if (under.has(e.id) || !CARD_KINDS_COUNTED.has(e.kind)) continue
      const parents = PARENTS[e.kind as TrashedKind] ?? []
      if (parents.some((field) => under.has(String(e.before![field])))) {
        under.add(e.id)
        grew = true
      }
    }
  }
  return under.size
}
