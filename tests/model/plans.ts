import fc from 'fast-check'
import { COLORS, type BoardCommandInput, type CardKind } from '~/features/board/board-commands'
import { living, type Model, type Refusal, type Who } from './model'
import type { Kind } from './states'
import type { Channel, World } from './world'

/**
 * The commands fast-check draws: what to do, by whom, through which door, with targets named by
 * position (`at`: the n-th living card of a kind, oldest first, modulo how many there are) so a
 * sequence means the same whatever ids the server hands out, and shrinks to one that still does.
 */

type CreateKind = 'workflow' | 'milestone' | 'subworkflow' | 'feature'
type Field = 'color' | 'description' | 'annotations' | 'estimate'
export type Op =
  | { t: 'create'; kind: CreateKind; at: number[]; title: string; color?: string; size?: number }
  | { t: 'rename'; kind: CardKind | 'project'; at: number; title: string }
  | { t: 'open' | 'close' | 'delete'; kind: CardKind; at: number }
  /** `estimate` sizes a feature, whatever `kind` says. */
  | { t: 'edit'; kind: CardKind; at: number; field: Field; value: string | number }
  | { t: 'move'; kind: CardKind; at: number; to: number[]; index: number }
  | { t: 'comment' | 'commentEdit' | 'commentDelete'; at: number; text: string }
  | { t: 'tagCreate'; name: string; color: string }
  | { t: 'tagRename'; at: number; name: string }
  | { t: 'tagColor'; at: number; color: string }
  | { t: 'tagDelete'; at: number }
  | { t: 'tagFeature'; at: number; tags: number[] }
  | { t: 'undo' | 'redo' }
  | { t: 'restore'; at: number }
  | { t: 'foreign'; what: 'rename' | 'delete' | 'feature' | 'comment' | 'undo' | 'restore'; unknown: boolean }
  | { t: 'bad'; what: 'title' | 'color' | 'estimate' | 'annotations' | 'comment' | 'tag'; at: number }
export type Plan = { who: Who; channel: Channel; op: Op }

/** What a plan is on a given model: commands for the write path, a history call, or a refusal probe. */
export type Built =
  | { kind: 'write'; commands: BoardCommandInput[]; expect?: Refusal }
  | { kind: 'history'; op: 'undo' | 'redo' | 'restore'; id: string; expect?: Refusal }

const CHANGE_KIND: Record<CardKind | 'project', Kind> = {
  workflow: 'workflow',
  milestone: 'milestone',
  subworkflow: 'subWorkflow',
  feature: 'feature',
  project: 'project',
}

/**
 * The plan on model `m`, with `newId` for what it creates; null when it has nothing to act on.
 * `w` gives the other workspace's ids (fast-check's `check` has none: it only asks whether a plan runs).
 */
export function build(plan: Plan, m: Model, w: World | undefined, newId: string): Built | null {
  const nth = (kind: Kind, at: number) => {
    const list = kind === 'project' ? [m.bundle.project as unknown as { id: string }] : living(m, kind)
    return list.length === 0 ? undefined : list[at % list.length].id
  }
  const projectId = m.bundle.project.id
  const op = plan.op
  switch (op.t) {
    case 'create': {
      // A card whose parents are missing makes the first missing one instead, so that no create is wasted.
      const kind: CreateKind =
        op.kind === 'feature' && !nth('milestone', 0)
          ? 'milestone'
          : (op.kind === 'feature' || op.kind === 'subworkflow') && !nth('workflow', 0)
            ? 'workflow'
            : op.kind === 'feature' && !nth('subWorkflow', 0)
              ? 'subworkflow'
              : op.kind
      const [first, second] = op.at
      const where = {
        workflow: { projectId },
        milestone: { projectId },
        subworkflow: { workflowId: nth('workflow', first) },
        feature: { milestoneId: nth('milestone', first), subWorkflowId: nth('subWorkflow', second) },
      }
      const commands = [
        { type: `${kind}.create`, id: newId, title: op.title, ...where[kind] } as BoardCommandInput,
      ]
      // MCP's add_* tools may set a colour and a size in the same change.
      if (plan.channel === 'mcp' && op.color !== undefined)
        commands.push({ type: 'card.color', kind, id: newId, color: op.color as '' })
      if (plan.channel === 'mcp' && op.size !== undefined && kind === 'feature')
        commands.push({ type: 'feature.estimate', id: newId, estimate: op.size })
      return { kind: 'write', commands }
    }
    case 'rename':
    case 'open':
    case 'close':
    case 'delete':
    case 'edit': {
      const id = nth(op.t === 'edit' && op.field === 'estimate' ? 'feature' : CHANGE_KIND[op.kind], op.at)
      if (!id) return null
      if (op.t === 'rename')
        return { kind: 'write', commands: [{ type: 'card.rename', kind: op.kind, id, title: op.title }] }
      if (op.t !== 'edit')
        return { kind: 'write', commands: [{ type: `card.${op.t}`, kind: op.kind as CardKind, id }] }
      if (op.field === 'estimate')
        return { kind: 'write', commands: [{ type: 'feature.estimate', id, estimate: op.value as number }] }
      return {
        kind: 'write',
        commands: [
          { type: `card.${op.field}`, kind: op.kind, id, [op.field]: op.value } as BoardCommandInput,
        ],
      }
    }
    case 'move': {
      const id = nth(CHANGE_KIND[op.kind], op.at)
      if (!id) return null
      if (op.kind === 'workflow' || op.kind === 'milestone')
        return { kind: 'write', commands: [{ type: `${op.kind}.move`, id, index: op.index }] }
      if (op.kind === 'subworkflow') {
        const toWorkflowId = nth('workflow', op.to[0])!
        return { kind: 'write', commands: [{ type: 'subworkflow.move', id, toWorkflowId, index: op.index }] }
      }
      const [toMilestoneId, toSubWorkflowId] = [nth('milestone', op.to[0])!, nth('subWorkflow', op.to[1])!]
      return {
        kind: 'write',
        commands: [{ type: 'feature.move', id, toMilestoneId, toSubWorkflowId, index: op.index }],
      }
    }
    case 'comment':
    case 'commentEdit':
    case 'commentDelete': {
      if (op.t === 'comment') {
        const featureId = nth('feature', op.at)
        return featureId
          ? { kind: 'write', commands: [{ type: 'comment.create', id: newId, featureId, post: op.text }] }
          : null
      }
      const id = nth('featureComment', op.at)
      if (!id) return null
      return {
        kind: 'write',
        commands: [
          op.t === 'commentEdit'
            ? { type: 'comment.edit', id, post: op.text }
            : { type: 'comment.delete', id },
        ],
      }
    }
    case 'tagCreate':
      return {
        kind: 'write',
        commands: [{ type: 'tag.create', id: newId, projectId, name: op.name, color: op.color as 'RED' }],
      }
    case 'tagRename':
    case 'tagColor':
    case 'tagDelete': {
      const id = nth('tag', op.at)
      if (!id) return null
      if (op.t === 'tagRename')
        return { kind: 'write', commands: [{ type: 'tag.rename', id, name: op.name }] }
      if (op.t === 'tagColor')
        return { kind: 'write', commands: [{ type: 'tag.color', id, color: op.color as 'RED' }] }
      return { kind: 'write', commands: [{ type: 'tag.delete', id }] }
    }
    case 'tagFeature': {
      const id = nth('feature', op.at)
      const tagIds = op.tags.map((at) => nth('tag', at)).filter((t) => t !== undefined)
      return id ? { kind: 'write', commands: [{ type: 'feature.tags', id, tagIds }] } : null
    }
    case 'undo':
    case 'redo':
      return { kind: 'history', op: op.t, id: projectId }
    case 'restore': {
      const trashed = [...m.trash.keys()].sort((a, b) => m.born.get(a)!.n - m.born.get(b)!.n)
      return trashed.length === 0
        ? null
        : { kind: 'history', op: 'restore', id: trashed[op.at % trashed.length] }
    }
    case 'foreign': {
      const f = w?.foreign ?? { project: '', feature: '', milestone: '', subworkflow: '' }
      const pick = (id: string) => (op.unknown ? crypto.randomUUID() : id)
      const expect = { status: 404 }
      if (op.what === 'undo') return { kind: 'history', op: 'undo', id: pick(f.project), expect }
      if (op.what === 'restore') return { kind: 'history', op: 'restore', id: pick(f.feature), expect }
      const commands: Record<typeof op.what, BoardCommandInput> = {
        rename: { type: 'card.rename', kind: 'feature', id: pick(f.feature), title: 'Taken over' },
        delete: { type: 'card.delete', kind: 'milestone', id: pick(f.milestone) },
        feature: {
          type: 'feature.create',
          id: newId,
          milestoneId: pick(f.milestone),
          subWorkflowId: pick(f.subworkflow),
          title: 'Stray',
        },
        comment: { type: 'comment.create', id: newId, featureId: pick(f.feature), post: 'Stray' },
      }
      return { kind: 'write', commands: [commands[op.what]], expect }
    }
    case 'bad': {
      const expect = { status: 400 }
      const feature = nth('feature', op.at)
      if (op.what === 'title')
        return {
          kind: 'write',
          commands: [
            { type: 'workflow.create', id: newId, projectId, title: op.at % 2 ? '  ' : 'x'.repeat(201) },
          ],
          expect,
        }
      if (op.what === 'tag')
        return {
          kind: 'write',
          commands: [{ type: 'tag.create', id: newId, projectId, name: 'a,b', color: 'RED' }],
          expect,
        }
      if (!feature) return null
      const commands: Record<typeof op.what, BoardCommandInput> = {
        color: { type: 'card.color', kind: 'feature', id: feature, color: 'PLAID' as '' },
        estimate: { type: 'feature.estimate', id: feature, estimate: [1000, -1, 2.5][op.at % 3] },
        annotations: { type: 'card.annotations', kind: 'feature', id: feature, annotations: 'RISKY,NOPE' },
        comment: { type: 'comment.create', id: newId, featureId: feature, post: '   ' },
      }
      return { kind: 'write', commands: [commands[op.what]], expect }
    }
  }
}

const at = fc.nat(30)
const title = fc.constantFrom(
  'Pay',
  '  Pay by card ',
  'Ship',
  'Café ☕',
  'Track parcel',
  'x'.repeat(200),
  'Log in',
)
const cardColor = fc.constantFrom('', ...COLORS)
const cardKind = fc.constantFrom<CardKind>('workflow', 'milestone', 'subworkflow', 'feature', 'feature')
const tagName = fc.constantFrom('Urgent', 'urgent', 'UX', 'Backend', ' later ')
const fieldValue: fc.Arbitrary<[Field, string | number]> = fc.oneof(
  fc.tuple(fc.constant<Field>('color'), cardColor),
  fc.tuple(fc.constant<Field>('description'), fc.constantFrom('', 'Needs **care**', 'Second line\nhere')),
  fc.tuple(fc.constant<Field>('annotations'), fc.constantFrom('', 'RISKY', 'BLOCKED, RISKY', 'IDEA,IDEA')),
  fc.tuple(fc.constant<Field>('estimate'), fc.constantFrom(0, 3, 999)),
)

/** Plain writes and history calls: anyone may try (a viewer is refused). */
const ops: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 12,
    arbitrary: fc.record({
      t: fc.constant('create' as const),
      kind: fc.constantFrom<CreateKind>(
        'workflow',
        'milestone',
        'subworkflow',
        'subworkflow',
        'feature',
        'feature',
        'feature',
      ),
      at: fc.tuple(at, at),
      title,
      color: fc.option(cardColor, { nil: undefined }),
      size: fc.option(fc.nat(999), { nil: undefined }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      t: fc.constant('rename' as const),
      kind: fc.oneof(cardKind, fc.constant('project' as const)),
      at,
      title,
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({ t: fc.constantFrom('open' as const, 'close' as const), kind: cardKind, at }),
  },
  {
    weight: 3,
    arbitrary: fieldValue.chain(([field, value]) =>
      fc.record({
        t: fc.constant('edit' as const),
        kind: cardKind,
        at,
        field: fc.constant(field),
        value: fc.constant(value),
      }),
    ),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      t: fc.constant('move' as const),
      kind: cardKind,
      at,
      to: fc.tuple(at, at),
      index: fc.nat(4),
    }),
  },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('delete' as const), kind: cardKind, at }) },
  {
    weight: 4,
    arbitrary: fc.record({
      t: fc.constantFrom('comment' as const, 'commentEdit' as const, 'commentDelete' as const),
      at,
      text: fc.constantFrom('Agreed', ' LGTM ', 'Why?'),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      t: fc.constant('tagCreate' as const),
      name: tagName,
      color: fc.constantFrom(...COLORS),
    }),
  },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('tagRename' as const), at, name: tagName }) },
  {
    weight: 1,
    arbitrary: fc.record({ t: fc.constant('tagColor' as const), at, color: fc.constantFrom(...COLORS) }),
  },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('tagDelete' as const), at }) },
  {
    weight: 2,
    arbitrary: fc.record({ t: fc.constant('tagFeature' as const), at, tags: fc.array(at, { maxLength: 3 }) }),
  },
  { weight: 4, arbitrary: fc.record({ t: fc.constant('undo' as const) }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('redo' as const) }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('restore' as const), at }) },
)

/** Refusal probes by members who may write: another workspace's or unknown ids (404), bad input (400). */
const probes: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    t: fc.constant('foreign' as const),
    what: fc.constantFrom(
      'rename' as const,
      'delete' as const,
      'feature' as const,
      'comment' as const,
      'undo' as const,
      'restore' as const,
    ),
    unknown: fc.boolean(),
  }),
  fc.record({
    t: fc.constant('bad' as const),
    what: fc.constantFrom(
      'title' as const,
      'color' as const,
      'estimate' as const,
      'annotations' as const,
      'comment' as const,
      'tag' as const,
    ),
    at,
  }),
)

const channel = fc.constantFrom<Channel>('rest', 'board', 'mcp')
const writer = fc.constantFrom<Who>('owner', 'editor')

export const plans: fc.Arbitrary<Plan> = fc.oneof(
  { weight: 12, arbitrary: fc.record({ who: writer, channel, op: ops }) },
  { weight: 2, arbitrary: fc.record({ who: fc.constant<Who>('viewer'), channel, op: ops }) },
  { weight: 1, arbitrary: fc.record({ who: writer, channel, op: probes }) },
)

/** A plan as one line of a counterexample. */
export function describePlan(p: Plan): string {
  const { t, ...rest } = p.op
  return `${p.who} via ${p.channel}: ${t} ${JSON.stringify(rest)}`
}
