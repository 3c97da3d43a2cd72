import { isDeepStrictEqual } from 'node:util'
import type { BoardCommand } from '~/features/board/board-commands'
import { applyCommand } from '~/features/board/board-reducer'
import type { ProjectBundle } from '~/features/map/bundle-types'
import {
  applyStates,
  diff,
  entitiesOf,
  find,
  PARENTS,
  RANK_SCOPE,
  type Entity,
  type Entry,
  type Kind,
} from './states'

/**
 * What the server should hold after a sequence of writes, computed without it: plain commands by
 * the board's own reducer (app/domain/board-reducer.ts), the business rules it does not check
 * (closed cards, tag names, comment authors, levels) here, and undo, redo and restore by ADR 12 on
 * the steps the model recorded (states.ts).
 */

export type Who = 'owner' | 'editor' | 'viewer'
export type Refusal = { status: number; code?: string }
export type Step = {
  version: number
  who: Who
  type: 'project' | 'command' | 'undo' | 'redo' | 'restore'
  entries: Entry[]
  mcp: boolean
  undoOf?: number
  redoOf?: number
  undoneBy?: number
  redoneBy?: number
}
export type Model = {
  bundle: ProjectBundle
  /** Every change so far, index = version - 1 (version 1 is the project's creation). */
  steps: Step[]
  /** Trash entries: the card id, and the version whose recorded state holds it. */
  trash: Map<string, number>
  /** When each id first appeared (commands pick their targets in this order, whatever the ids), and as what. */
  born: Map<string, { n: number; kind: Kind }>
  members: Record<Who, { memberId: string; name: string }>
  clock: number
}
/** A prediction: the refusal, or the bundle after the write and how to record it. */
type StepRecord = Omit<Step, 'version' | 'entries' | 'mcp'>
export type Prediction = { refuse: Refusal } | Accepted
export type Accepted = { bundle: ProjectBundle; record: StepRecord; trashes: boolean }

export function newModel(bundle: ProjectBundle, members: Model['members']): Model {
  const model: Model = { bundle, steps: [], trash: new Map(), born: new Map(), members, clock: 0 }
  model.steps.push({ version: 1, who: 'owner', type: 'project', entries: [], mcp: false })
  model.born.set(bundle.project.id, { n: 0, kind: 'project' })
  return model
}

export const version = (m: Model) => m.steps.length

/** Live entities of a kind, oldest first. */
export function living(m: Model, kind: Kind): Entity[] {
  return [...entitiesOf(m.bundle).values()]
    .filter((e) => e.kind === kind)
    .map((e) => e.entity)
    .sort((a, b) => m.born.get(a.id)!.n - m.born.get(b.id)!.n)
}

const refuse = (status: number, code?: string): Prediction => ({ refuse: { status, code } })
const TRASHED = new Set<Kind>(['milestone', 'workflow', 'subWorkflow', 'feature'])
const CARD_LIST = {
  milestone: 'milestones',
  workflow: 'workflows',
  subworkflow: 'subWorkflows',
  feature: 'features',
} as const

/** The server's rules beyond the command schema and the reducer (SPEC §4, §6, CONTRACT §12). */
function ruleBroken(b: ProjectBundle, memberId: string, c: BoardCommand): Refusal | null {
  const edits = ['card.rename', 'card.description', 'card.color', 'card.annotations']
  if ((edits.includes(c.type) && 'kind' in c && c.kind !== 'project') || c.type === 'feature.estimate') {
    const kind = 'kind' in c ? (c.kind as keyof typeof CARD_LIST) : 'feature'
    const card = (b[CARD_LIST[kind]] as { id: string; status: string }[]).find((x) => x.id === c.id)
    if (card?.status === 'CLOSED') return { status: 400, code: 'card_closed' }
  }
  if (c.type === 'tag.create' || c.type === 'tag.rename') {
    const taken = (b.tags ?? []).some((t) => t.id !== c.id && t.name.toLowerCase() === c.name.toLowerCase())
    if (taken) return { status: 409, code: 'tag_taken' }
  }
  if (c.type === 'comment.edit' || c.type === 'comment.delete') {
    if (b.featureComments.find((x) => x.id === c.id)?.memberId !== memberId)
      return { status: 403, code: 'not_author' }
  }
  return null
}

/** One write of plain commands (several only for an MCP tool that sets fields of what it made). */
export function predictCommands(m: Model, who: Who, commands: BoardCommand[]): Prediction {
  if (who === 'viewer') return refuse(403, 'level_too_low')
  const { memberId, name } = m.members[who]
  let b = m.bundle
  for (const c of commands) {
    const broken = ruleBroken(b, memberId, c)
    if (broken) return { refuse: broken }
    b = applyCommand(b, c, {
      memberId,
      name,
      now: new Date(Date.UTC(2000, 0, 1) + ++m.clock * 1000).toISOString(),
    })
  }
  return { bundle: b, record: { who, type: 'command' }, trashes: commands[0].type === 'card.delete' }
}

/** The caller's newest change that is not undone (CONTRACT §7). */
export function undoTarget(m: Model, who: Who): Step | undefined {
  return [...m.steps]
    .reverse()
    .find(
      (s) =>
        s.who === who && (s.type === 'command' || s.type === 'redo' || s.type === 'restore') && !s.undoneBy,
    )
}

/** The caller's latest undo not redone, unless they made a new change since. */
export function redoTarget(m: Model, who: Who): Step | undefined {
  for (const s of [...m.steps].reverse()) {
    if (s.who !== who) continue
    if (s.type !== 'undo' && s.type !== 'redo') return undefined
    if (s.type === 'undo' && !s.redoneBy) return s
  }
  return undefined
}

/**
 * Whether going back on `step` now keeps every later step undoable: no change since `since`
 * that still stands touched what `step` touched (undone steps, and undos of later steps, are
 * gone again). Undoing an older step past a newer one of someone else's is legitimate (ADR 12
 * lets an undo delete a card someone has moved since) but would make that newer step's undo a
 * conflict, and the final undo-all could not empty the map.
 */
export function untouchedSince(m: Model, step: Step, since: number): boolean {
  const ids = new Set(step.entries.map((e) => e.id))
  // A later step touches what `step` touched, or something under it (a feature made in an
  // activity, then deleted: its undo needs the activity back).
  const touches = (e: Step['entries'][number]) => {
    if (ids.has(e.id)) return true
    const state = e.after ?? e.before
    return !!state && PARENTS[e.kind].some(([field]) => ids.has(String(state[field])))
  }
  return m.steps
    .slice(since)
    .every(
      (later) =>
        !later.entries.some(touches) || (later.type === 'undo' ? later.undoOf! > since : !!later.undoneBy),
    )
}

/**
 * An undo or redo that puts a card back into another list at a rank a card of that list has
 * taken since: the server gives it the nearest free rank (ADR 12; before issue 32 it answered
 * 500), so the card no longer sits where an earlier step of its left it, and that step's undo is
 * a legitimate conflict. Kept out of the draw to keep the final undo-all possible; the free rank
 * itself is tested in tests/integration/history.test.ts.
 */
function rankTakenInNewList(m: Model, step: Step, back: boolean): boolean {
  return step.entries.some((e) => {
    const [from, to] = back ? [e.after, e.before] : [e.before, e.after]
    const scope = RANK_SCOPE[e.kind]
    if (!from || !to || !scope || from.rank !== to.rank || scope.every((f) => from[f] === to[f])) return false
    return living(m, e.kind).some(
      (x) => x.id !== e.id && x.rank === to.rank && scope.every((f) => x[f] === to[f]),
    )
  })
}

/**
 * Whether the generator may draw this undo, redo or restore by a member who may write: an undo or
 * redo goes back (no undo_conflict) without breaking a later step.
 */
export function mayDraw(m: Model, who: Who, op: 'undo' | 'redo' | 'restore', id: string): boolean {
  const p =
    op === 'undo' ? predictUndo(m, who) : op === 'redo' ? predictRedo(m, who) : predictRestore(m, who, id)
  if ('refuse' in p) return p.refuse.code !== 'undo_conflict'
  if (op === 'restore') return true
  const undo = op === 'redo' ? redoTarget(m, who)! : undefined
  const step = undo ? m.steps[undo.undoOf! - 1] : undoTarget(m, who)!
  // A put-back that also changes something its step did not touch (a tag that goes comes off the
  // features that carried it) changes what a later step left: that step's undo becomes a conflict.
  const ownOnly = diff(m.bundle, p.bundle).every((e) => step.entries.some((s) => s.id === e.id))
  return (
    ownOnly &&
    untouchedSince(m, step, undo ? undo.version : step.version) &&
    !rankTakenInNewList(m, step, op === 'undo')
  )
}

/** An id as a counterexample shows it: its kind and when it appeared (`feature#3`). */
export function label(m: Model, id: string): string {
  const born = m.born.get(id)
  return born ? `${born.kind}#${born.n}` : 'elsewhere'
}

function replay(m: Model, step: Step, back: boolean, record: StepRecord): Prediction {
  const transitions = step.entries.map((e) => ({
    kind: e.kind,
    id: e.id,
    from: back ? e.after : e.before,
    to: back ? e.before : e.after,
  }))
  const applied = applyStates(m.bundle, transitions)
  if ('conflict' in applied || isDeepStrictEqual(applied.bundle, m.bundle))
    return refuse(409, 'undo_conflict')
  return { bundle: applied.bundle, record, trashes: true }
}

export function predictUndo(m: Model, who: Who): Prediction {
  if (who === 'viewer') return refuse(403, 'level_too_low')
  const target = undoTarget(m, who)
  if (!target) return refuse(409, 'nothing_to_undo')
  return replay(m, target, true, { who, type: 'undo', undoOf: target.version })
}

export function predictRedo(m: Model, who: Who): Prediction {
  if (who === 'viewer') return refuse(403, 'level_too_low')
  const undo = redoTarget(m, who)
  if (!undo) return refuse(409, 'nothing_to_redo')
  return replay(m, m.steps[undo.undoOf! - 1], false, { who, type: 'redo', redoOf: undo.undoOf })
}

/** CONTRACT §7: back where it was with everything the same delete took, unless its parent is gone. */
export function predictRestore(m: Model, who: Who, id: string): Prediction {
  if (who === 'viewer') return refuse(403, 'level_too_low')
  const version = m.trash.get(id)
  if (version === undefined) return refuse(404, 'trash_not_found')
  const removed = m.steps[version - 1].entries.filter((e) => e.before !== null && e.after === null)
  const root = removed.find((e) => e.id === id)!
  const parentGone = (['projectId', 'workflowId', 'milestoneId', 'subWorkflowId'] as const).some((field) => {
    const kind = {
      projectId: 'project',
      workflowId: 'workflow',
      milestoneId: 'milestone',
      subWorkflowId: 'subWorkflow',
    }[field] as Kind
    return field in root.before! && !find(m.bundle, kind, root.before![field])
  })
  if (parentGone) return refuse(409, 'parent_missing')
  const applied = applyStates(
    m.bundle,
    removed.map((e) => ({ kind: e.kind, id: e.id, from: null, to: e.before })),
  )
  if ('conflict' in applied)
    return refuse(409, applied.conflict === 'parent_missing' ? 'parent_missing' : 'restore_conflict')
  return { bundle: applied.bundle, record: { who, type: 'restore' }, trashes: false }
}

/** Records an accepted write; answers whether it is a change (a new version) at all. */
export function commit(m: Model, p: Accepted, mcp: boolean): boolean {
  const entries = diff(m.bundle, p.bundle)
  if (entries.length === 0) return false
  const step: Step = { ...p.record, version: version(m) + 1, entries, mcp }
  if (step.undoOf) m.steps[step.undoOf - 1].undoneBy = step.version
  if (step.redoOf) m.steps.find((s) => s.undoOf === step.redoOf && !s.redoneBy)!.redoneBy = step.version
  m.steps.push(step)
  m.bundle = p.bundle
  // ADR 12's trash: what comes back leaves it; a card a trashing write removes, without its parent, enters it.
  for (const e of entries) if (e.before === null) m.trash.delete(e.id)
  const gone = new Set(entries.filter((e) => e.after === null).map((e) => e.id))
  if (p.trashes)
    for (const e of entries)
      if (
        e.after === null &&
        TRASHED.has(e.kind) &&
        !['projectId', 'workflowId', 'milestoneId', 'subWorkflowId'].some((f) =>
          gone.has(String(e.before![f])),
        )
      )
        m.trash.set(e.id, step.version)
  for (const { kind, entity } of entitiesOf(m.bundle).values())
    if (!m.born.has(entity.id)) m.born.set(entity.id, { n: m.born.size, kind })
  return true
}
