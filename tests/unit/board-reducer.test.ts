import { describe, expect, it } from 'vitest'
import type { BoardCommand } from '~/features/board/board-commands'
import { applyCommand } from '~/features/board/board-reducer'
import type { ProjectBundle } from '~/features/map/bundle-types'

const card = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  workspaceId: 'w',
  rank: 'n',
  title: `server ${id}`,
  description: '',
  createdAt: '',
  createdBy: '',
  createdByName: '',
  lastModified: '',
  lastModifiedByName: '',
  color: '',
  status: 'OPEN',
  annotations: '',
  ...extra,
})
const meta = { memberId: 'me', name: 'Me', now: '2026-01-01T00:00:00.000Z' }

// Ids as the browser makes them; the server keeps them.
const P = '00000000-0000-4000-8000-000000000000'
const M = '00000000-0000-4000-8000-000000000001'
const W = '00000000-0000-4000-8000-000000000002'
const S = '00000000-0000-4000-8000-000000000003'
const F = '00000000-0000-4000-8000-000000000004'
const C = '00000000-0000-4000-8000-000000000005'
const PE = '00000000-0000-4000-8000-000000000006'
const WP = '00000000-0000-4000-8000-000000000007'

/** A bundle that already holds the server's copy of everything the creates below make. */
const served = {
  project: { id: P, workspaceId: 'w' },
  milestones: [card(M, { projectId: P })],
  workflows: [card(W, { projectId: P })],
  subWorkflows: [card(S, { workflowId: W })],
  features: [card(F, { milestoneId: M, subWorkflowId: S, estimate: 0 })],
  featureComments: [{ id: C, featureId: F, post: 'server post' }],
  personas: [{ id: PE, name: 'Server persona' }],
  workflowPersonas: [{ id: WP, personaId: PE, workflowId: W }],
} as unknown as ProjectBundle

describe('applyCommand', () => {
  const creates: BoardCommand[] = [
    { type: 'milestone.create', id: M, projectId: P, title: 'local' },
    { type: 'workflow.create', id: W, projectId: P, title: 'local' },
    { type: 'subworkflow.create', id: S, workflowId: W, title: 'local' },
    { type: 'feature.create', id: F, milestoneId: M, subWorkflowId: S, title: 'local' },
    { type: 'comment.create', id: C, featureId: F, post: 'local' },
    {
      type: 'persona.create',
      id: PE,
      projectId: P,
      avatar: 'avatar00',
      name: 'local',
      role: '',
      description: '',
      workflowId: W,
      workflowPersonaId: WP,
    },
    { type: 'workflowPersona.create', id: WP, workflowId: W, personaId: PE },
  ]
  it.each(creates.map((c) => [c.type, c] as const))(
    '%s over its own server copy changes nothing (no duplicate)',
    (_type, command) => {
      expect(applyCommand(served, command, meta)).toBe(served)
    },
  )

  it('adds a create whose id is new', () => {
    const next = applyCommand(
      served,
      { type: 'milestone.create', id: '00000000-0000-4000-8000-000000000009', projectId: P, title: 'Later' },
      meta,
    )
    expect(next.milestones.map((m) => m.title)).toEqual([`server ${M}`, 'Later'])
  })
})

describe('applyCommand: moves beside a neighbour', () => {
  const f = (id: string, rank: string) => card(id, { rank, milestoneId: M, subWorkflowId: S, estimate: 0 })
  const ids = [
    '00000000-0000-4000-8000-0000000000a1',
    '00000000-0000-4000-8000-0000000000a2',
    '00000000-0000-4000-8000-0000000000a3',
  ]
  const cell = {
    ...served,
    features: [f(ids[0], 'b'), f(ids[1], 'c'), f(ids[2], 'd')],
  } as unknown as ProjectBundle
  const order = (b: ProjectBundle) =>
    [...b.features].sort((x, y) => (x.rank < y.rank ? -1 : 1)).map((x) => x.id)
  it('puts the card right after afterId, else right before beforeId, else at the index', () => {
    const move = (place: Record<string, unknown>) =>
      order(
        applyCommand(
          cell,
          { type: 'feature.move', id: ids[0], toMilestoneId: M, toSubWorkflowId: S, ...place },
          meta,
        ),
      )
    expect(move({ afterId: ids[1], index: 0 })).toEqual([ids[1], ids[0], ids[2]])
    expect(move({ afterId: F, beforeId: ids[2], index: 0 })).toEqual([ids[1], ids[0], ids[2]])
    expect(move({ afterId: F, index: 2 })).toEqual([ids[1], ids[2], ids[0]])
  })
})
