import type { BoardCommand } from './board-commands'
import { byRank } from './board-grid'
import type { CardFields, Feature, ProjectBundle } from '../map/bundle-types'
import { placeInList, placeOfMove, rankBetween, type MovePlace } from '../map/rank'
import { applyTagCommand } from './tag-reducer'
import type { EditMeta } from '../map/bundle-types'

/** Who is editing and when: fills createdBy/createdByName/lastModified on local copies. */
export type { EditMeta } from '../map/bundle-types'

type Card = CardFields
type CardListKey = 'milestones' | 'workflows' | 'subWorkflows' | 'features'
const LIST_OF_KIND = {
  milestone: 'milestones',
  workflow: 'workflows',
  subworkflow: 'subWorkflows',
  feature: 'features',
} as const

function newCard(meta: EditMeta, id: string, title: string, rank: string, color = ''): Card {
  return {
    id,
    workspaceId: '',
    rank,
    title,
    description: '',
    createdAt: meta.now,
    createdBy: meta.memberId,
    createdByName: meta.name,
    lastModified: meta.now,
    lastModifiedByName: meta.name,
    color,
    status: 'OPEN',
    annotations: '',
  }
}

function appendRank(siblings: readonly { rank: string }[]): string {
  const last = siblings.reduce<string | null>((max, s) => (max === null || s.rank > max ? s.rank : max), null)
  return rankBetween(last, null) ?? `${last ?? ''}n`
}

/**
 * Puts `moved` at its place in `siblings` (a neighbour or an index, see rank.ts) and returns the
 * re-ranked cards; a place that names no card of the list and no index puts it last.
 */
function placeCard<T extends Card>(siblings: T[], moved: T, place: MovePlace): T[] {
  const sorted = siblings.filter((s) => s.id !== moved.id).sort(byRank)
  const placed = placeInList(
    sorted.map((s) => s.rank),
    placeOfMove(
      sorted.map((s) => s.id),
      place,
    ) ?? sorted.length,
  )
  const updated: T[] = [{ ...moved, rank: placed.rank }]
  if (placed.rebalanced) sorted.forEach((s, i) => updated.push({ ...s, rank: placed.rebalanced![i] }))
  return updated
}

function replace<T extends { id: string }>(list: T[], changed: T[]): T[] {
  const byId = new Map(changed.map((c) => [c.id, c]))
  return list.map((item) => byId.get(item.id) ?? item)
}

function touch<T extends Card>(card: T, meta: EditMeta, change: Partial<T>): T {
  return { ...card, ...change, lastModified: meta.now, lastModifiedByName: meta.name }
}

function editCard(
  bundle: ProjectBundle,
  kind: keyof typeof LIST_OF_KIND,
  id: string,
  meta: EditMeta,
  change: Partial<Feature>,
): ProjectBundle {
  const key: CardListKey = LIST_OF_KIND[kind]
  const list = bundle[key] as Card[]
  return { ...bundle, [key]: list.map((c) => (c.id === id ? touch(c, meta, change as Partial<Card>) : c)) }
}

/** Where each create puts its new item. */
const LIST_OF_CREATE = {
  'milestone.create': 'milestones',
  'workflow.create': 'workflows',
  'subworkflow.create': 'subWorkflows',
  'feature.create': 'features',
  'comment.create': 'featureComments',
  'persona.create': 'personas',
  'workflowPersona.create': 'workflowPersonas',
} as const

/**
 * Applies one board command to a bundle, as the server would: optimistic edits over loader data,
 * and demo mode's whole state. Pure; commands naming unknown ids leave the bundle unchanged, and
 * a create whose id is already there is a no-op: a pending create's own server copy can arrive
 * first, through the revalidation of another edit, and must not show twice.
 */
export function applyCommand(bundle: ProjectBundle, command: BoardCommand, meta: EditMeta): ProjectBundle {
  const b = bundle
  if (command.type in LIST_OF_CREATE) {
    const list: readonly { id: string }[] = b[LIST_OF_CREATE[command.type as keyof typeof LIST_OF_CREATE]]
    if (list.some((item) => item.id === command.id)) return b
  }
  switch (command.type) {
    case 'project.create':
      return b
    case 'milestone.create':
      return {
        ...b,
        milestones: [
          ...b.milestones,
          {
            ...newCard(meta, command.id, command.title, appendRank(b.milestones)),
            projectId: command.projectId,
          },
        ],
      }
    case 'workflow.create':
      return {
        ...b,
        workflows: [
          ...b.workflows,
          {
            ...newCard(meta, command.id, command.title, appendRank(b.workflows), 'WHITE'),
            projectId: command.projectId,
          },
        ],
      }
    case 'subworkflow.create': {
      const siblings = b.subWorkflows.filter((s) => s.workflowId === command.workflowId)
      return {
        ...b,
        subWorkflows: [
          ...b.subWorkflows,
          {
            ...newCard(meta, command.id, command.title, appendRank(siblings)),
            workflowId: command.workflowId,
            projectId: b.project.id,
          },
        ],
      }
    }
    case 'feature.create': {
      const siblings = b.features.filter(
        (f) => f.milestoneId === command.milestoneId && f.subWorkflowId === command.subWorkflowId,
      )
      const feature: Feature = {
        ...newCard(meta, command.id, command.title, appendRank(siblings)),
        projectId: b.project.id,
        milestoneId: command.milestoneId,
        subWorkflowId: command.subWorkflowId,
        estimate: 0,
        tagIds: [],
      }
      return { ...b, features: [...b.features, feature] }
    }
    case 'card.rename':
    case 'card.description': {
      const change =
        command.type === 'card.rename' ? { title: command.title } : { description: command.description }
      if (command.kind === 'project') {
        return {
          ...b,
          project: { ...b.project, ...change, lastModified: meta.now, lastModifiedByName: meta.name },
        }
      }
      return editCard(b, command.kind, command.id, meta, change)
    }
    case 'card.open':
    case 'card.close':
      return editCard(b, command.kind, command.id, meta, {
        status: command.type === 'card.open' ? 'OPEN' : 'CLOSED',
      })
    case 'card.color':
      return editCard(b, command.kind, command.id, meta, { color: command.color })
    case 'card.annotations':
      return editCard(b, command.kind, command.id, meta, { annotations: command.annotations })
    case 'feature.estimate':
      return editCard(b, 'feature', command.id, meta, { estimate: command.estimate })
    case 'card.delete':
      return deleteCard(b, command.kind, command.id)
    case 'milestone.move':
    case 'workflow.move': {
      const key = command.type === 'milestone.move' ? 'milestones' : 'workflows'
      const list = b[key] as Card[]
      const moved = list.find((c) => c.id === command.id)
      if (!moved) return b
      return { ...b, [key]: replace(list, placeCard(list, touch(moved, meta, {}), command)) }
    }
    case 'subworkflow.move': {
      const moved = b.subWorkflows.find((s) => s.id === command.id)
      if (!moved) return b
      const target = b.subWorkflows.filter((s) => s.workflowId === command.toWorkflowId)
      const changed = placeCard(target, touch(moved, meta, { workflowId: command.toWorkflowId }), command)
      return { ...b, subWorkflows: replace(b.subWorkflows, changed) }
    }
    case 'feature.move': {
      const moved = b.features.find((f) => f.id === command.id)
      if (!moved) return b
      const target = b.features.filter(
        (f) => f.milestoneId === command.toMilestoneId && f.subWorkflowId === command.toSubWorkflowId,
      )
      const changed = placeCard(
        target,
        touch(moved, meta, { milestoneId: command.toMilestoneId, subWorkflowId: command.toSubWorkflowId }),
        command,
      )
      return { ...b, features: replace(b.features, changed) }
    }
    case 'comment.create':
      return {
        ...b,
        featureComments: [
          {
            kind: 'featureComment',
            id: command.id,
            workspaceId: b.project.workspaceId,
            featureId: command.featureId,
            projectId: b.project.id,
            memberId: meta.memberId,
            post: command.post,
            createdAt: meta.now,
            createdByName: meta.name,
            lastModified: meta.now,
          },
          ...b.featureComments,
        ],
      }
    case 'comment.edit':
      return {
        ...b,
        featureComments: b.featureComments.map((c) =>
          c.id === command.id ? { ...c, post: command.post, lastModified: meta.now } : c,
        ),
      }
    case 'comment.delete':
      return { ...b, featureComments: b.featureComments.filter((c) => c.id !== command.id) }
    case 'persona.create': {
      const persona = {
        id: command.id,
        workspaceId: b.project.workspaceId,
        projectId: command.projectId,
        avatar: command.avatar,
        name: command.name,
        role: command.role,
        description: command.description,
        createdAt: meta.now,
      }
      const personas = [...b.personas, persona].sort((x, y) => x.name.localeCompare(y.name))
      const links =
        command.workflowId && command.workflowPersonaId
          ? [
              ...b.workflowPersonas,
              {
                id: command.workflowPersonaId,
                personaId: command.id,
                workflowId: command.workflowId,
                projectId: b.project.id,
                workspaceId: b.project.workspaceId,
              },
            ]
          : b.workflowPersonas
      return { ...b, personas, workflowPersonas: links }
    }
    case 'persona.update': {
      const { type: _type, id, ...change } = command
      const defined = Object.fromEntries(Object.entries(change).filter(([, v]) => v !== undefined))
      return {
        ...b,
        personas: b.personas
          .map((p) => (p.id === id ? { ...p, ...defined } : p))
          .sort((x, y) => x.name.localeCompare(y.name)),
      }
    }
    case 'persona.delete':
      return {
        ...b,
        personas: b.personas.filter((p) => p.id !== command.id),
        workflowPersonas: b.workflowPersonas.filter((wp) => wp.personaId !== command.id),
      }
    case 'workflowPersona.create':
      return {
        ...b,
        workflowPersonas: [
          ...b.workflowPersonas,
          {
            id: command.id,
            personaId: command.personaId,
            workflowId: command.workflowId,
            projectId: b.project.id,
            workspaceId: b.project.workspaceId,
          },
        ],
      }
    case 'workflowPersona.delete':
      return { ...b, workflowPersonas: b.workflowPersonas.filter((wp) => wp.id !== command.id) }
    case 'tag.create':
    case 'tag.rename':
    case 'tag.color':
    case 'tag.delete':
    case 'feature.tags':
      return applyTagCommand(b, command, meta)
  }
}

/** SPEC §4: deleting a release or activity removes its features; a goal removes its activities' features. */
/** The features `gone` picks go, and their comments with them (as the server's cascade does). */
function withoutFeatures(
  b: ProjectBundle,
  gone: (f: ProjectBundle['features'][number]) => boolean,
): ProjectBundle {
  const removed = new Set(b.features.filter(gone).map((f) => f.id))
  if (removed.size === 0) return b
  return {
    ...b,
    features: b.features.filter((f) => !removed.has(f.id)),
    featureComments: b.featureComments.filter((c) => !removed.has(c.featureId)),
  }
}

function deleteCard(b: ProjectBundle, kind: string, id: string): ProjectBundle {
  switch (kind) {
    case 'milestone':
      return withoutFeatures(
        { ...b, milestones: b.milestones.filter((m) => m.id !== id) },
        (f) => f.milestoneId === id,
      )
    case 'subworkflow':
      return withoutFeatures(
        { ...b, subWorkflows: b.subWorkflows.filter((s) => s.id !== id) },
        (f) => f.subWorkflowId === id,
      )
    case 'workflow': {
      const gone = new Set(b.subWorkflows.filter((s) => s.workflowId === id).map((s) => s.id))
      return withoutFeatures(
        {
          ...b,
          workflows: b.workflows.filter((w) => w.id !== id),
          subWorkflows: b.subWorkflows.filter((s) => s.workflowId !== id),
          workflowPersonas: b.workflowPersonas.filter((wp) => wp.workflowId !== id),
        },
        (f) => gone.has(f.subWorkflowId),
      )
    }
    case 'feature':
      return {
        ...b,
        features: b.features.filter((f) => f.id !== id),
        featureComments: b.featureComments.filter((c) => c.featureId !== id),
      }
    default:
      return b
  }
}
