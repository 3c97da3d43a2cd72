import { describe, expect, it } from 'vitest'
import { ANNOTATIONS, COLORS, normalizeAnnotations, parseBoardCommand } from '~/features/board/board-commands'

const ID = '6f1c2d4e-8a9b-4c3d-9e8f-0a1b2c3d4e5f'
const ID2 = '7f1c2d4e-8a9b-4c3d-9e8f-0a1b2c3d4e5f'

const ok = (input: unknown) => {
  const r = parseBoardCommand(input)
  if (!r.ok) throw new Error(`${r.code}: ${r.message}`)
  return r.command
}
const code = (input: unknown) => {
  const r = parseBoardCommand(input)
  return r.ok ? 'ok' : r.code
}

describe('colours and annotations', () => {
  it('has eleven colours and nine annotations', () => {
    expect(COLORS).toHaveLength(11)
    expect(ANNOTATIONS).toHaveLength(9)
  })
  it('normalises annotations: trims, dedupes, canonical order, rejects unknown names', () => {
    expect(normalizeAnnotations('')).toBe('')
    expect(normalizeAnnotations('IDEA,RISKY, IDEA ,')).toBe('RISKY,IDEA')
    expect(normalizeAnnotations('RESEARCH,BLOCKED,RISKY')).toBe('RISKY,BLOCKED,RESEARCH')
    expect(normalizeAnnotations('RISKY,NOPE')).toBeNull()
    expect(normalizeAnnotations('risky')).toBeNull()
  })
  it('accepts every colour and none, refuses others', () => {
    for (const color of [...COLORS, ''])
      expect(code({ type: 'card.color', kind: 'feature', id: ID, color })).toBe('ok')
    expect(code({ type: 'card.color', kind: 'feature', id: ID, color: 'MAUVE' })).toBe('color_invalid')
    expect(code({ type: 'card.color', kind: 'project', id: ID, color: 'RED' })).toBe('kind_invalid')
    expect(code({ type: 'card.annotations', kind: 'milestone', id: ID, annotations: 'FOO' })).toBe(
      'annotations_invalid',
    )
    expect(
      ok({ type: 'card.annotations', kind: 'milestone', id: ID, annotations: 'IDEA,RISKY' }),
    ).toMatchObject({ annotations: 'RISKY,IDEA' })
  })
})

describe('parseBoardCommand', () => {
  it('trims titles and bounds them to 1–200 (title_invalid)', () => {
    expect(ok({ type: 'project.create', id: ID, title: '  Plan  ' })).toEqual({
      type: 'project.create',
      id: ID,
      title: 'Plan',
    })
    expect(code({ type: 'project.create', id: ID, title: '   ' })).toBe('title_invalid')
    expect(code({ type: 'project.create', id: ID, title: 'x'.repeat(201) })).toBe('title_invalid')
    expect(code({ type: 'project.create', id: ID, title: 'x'.repeat(200) })).toBe('ok')
    expect(code({ type: 'card.rename', kind: 'workflow', id: ID, title: 5 })).toBe('title_invalid')
  })
  it('lower-cases ids and refuses non-UUIDs', () => {
    expect(ok({ type: 'card.open', kind: 'feature', id: ID.toUpperCase() })).toMatchObject({ id: ID })
    expect(code({ type: 'card.open', kind: 'feature', id: 'nope' })).toBe('id_invalid')
    expect(code({ type: 'feature.create', id: ID, milestoneId: 'x', subWorkflowId: ID2, title: 't' })).toBe(
      'milestone_id_invalid',
    )
  })
  it('bounds descriptions, comments, estimates and indexes', () => {
    expect(code({ type: 'card.description', kind: 'project', id: ID, description: 'x'.repeat(10000) })).toBe(
      'ok',
    )
    expect(code({ type: 'card.description', kind: 'project', id: ID, description: 'x'.repeat(10001) })).toBe(
      'description_invalid',
    )
    expect(code({ type: 'comment.create', id: ID, featureId: ID2, post: '' })).toBe('post_invalid')
    expect(code({ type: 'comment.create', id: ID, featureId: ID2, post: ' ' })).toBe('post_invalid')
    expect(code({ type: 'comment.edit', id: ID, post: 'x'.repeat(10001) })).toBe('post_invalid')
    for (const estimate of [0, 999]) expect(code({ type: 'feature.estimate', id: ID, estimate })).toBe('ok')
    for (const estimate of [-1, 1000, 1.5, '3', null])
      expect(code({ type: 'feature.estimate', id: ID, estimate })).toBe('estimate_invalid')
    expect(code({ type: 'milestone.move', id: ID, index: -1 })).toBe('index_invalid')
    expect(code({ type: 'milestone.move', id: ID, index: 0.5 })).toBe('index_invalid')
  })
  it('defaults persona fields and requires workflowPersonaId with workflowId', () => {
    expect(ok({ type: 'persona.create', id: ID, projectId: ID2, name: ' Ann ' })).toMatchObject({
      avatar: 'avatar00',
      name: 'Ann',
      role: '',
      description: '',
    })
    expect(code({ type: 'persona.create', id: ID, projectId: ID2, name: 'A', avatar: 'avatar09' })).toBe(
      'avatar_invalid',
    )
    expect(code({ type: 'persona.create', id: ID, projectId: ID2, name: '' })).toBe('name_invalid')
    expect(code({ type: 'persona.create', id: ID, projectId: ID2, name: 'A', role: 'x'.repeat(201) })).toBe(
      'role_invalid',
    )
    expect(code({ type: 'persona.create', id: ID, projectId: ID2, name: 'A', workflowId: ID })).toBe(
      'workflow_persona_id_invalid',
    )
  })
  it('refuses unknown command types', () => {
    expect(code({ type: 'card.explode', id: ID })).toBe('type_invalid')
  })
})
